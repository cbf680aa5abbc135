import { describe, expect, it } from 'vitest';
import { closedLoop, quantile, ratio, summarize } from './stats.ts';

describe('quantile', () => {
  it('interpolates between neighbours', () => {
    expect(quantile([100, 200, 300, 400], 0.5)).toBe(250);
    expect(quantile([100, 200, 300, 400], 0.95)).toBeCloseTo(385);
    expect(quantile([7], 0.99)).toBe(7);
    expect(quantile([], 0.5)).toBeNaN();
  });
});

describe('summarize', () => {
  it('takes percentiles over successful requests only and counts failures by status', () => {
    const s = summarize(
      [
        { ms: 1200, ok: true, status: 200 },
        { ms: 800, ok: true, status: 200 },
        { ms: 3, ok: false, status: 503 },
        { ms: 5, ok: false, status: 0 },
        { ms: 1000, ok: true, status: 200 },
      ],
      2000,
    );
    expect(s).toMatchObject({ requests: 5, ok: 3, errors: 2, errorStatuses: { '503': 1, '0': 1 }, p50: 1000, max: 1200, mean: 1000, throughput: 1.5 });
  });
});

describe('ratio', () => {
  it('is null when a side is missing', () => {
    expect(ratio(1500, 1000)).toBe(1.5);
    expect(ratio(Number.NaN, 1000)).toBeNull();
    expect(ratio(10, 0)).toBeNull();
  });
});

describe('closedLoop', () => {
  it('runs every task once with at most `concurrency` in flight, and records a throw as a failure', async () => {
    let inFlight = 0;
    let peak = 0;
    const seen: number[] = [];
    const { samples } = await closedLoop(3, 10, async (i) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      seen.push(i);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      if (i === 4) throw new Error('connection reset');
      return { ok: true, status: 200 };
    });
    expect(peak).toBe(3);
    expect(seen.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(samples.filter((s) => !s.ok)).toEqual([expect.objectContaining({ ok: false, status: 0 })]);
  });
});
