import { describe, expect, it } from 'vitest';
import { BUCKET_MS, slideWindow, type BucketWindow } from './port.ts';

const W = 60_000;
// A real minute boundary (2025-03-01T10:00:00Z); `at(s)` is s seconds into that minute.
const S = Date.parse('2025-03-01T10:00:00.000Z');
const at = (seconds: number) => S + seconds * 1000;

/** Admits hits at `now` until one is rejected; returns the state and the rejection. */
function fill(state: BucketWindow | null, limit: number, now: number) {
  let admitted = 0;
  for (;;) {
    const r = slideWindow(state, limit, now, W);
    if (!r.hit.allowed) return { state: r.state, rejected: r.hit, admitted };
    state = r.state;
    admitted += 1;
  }
}

/** The largest number of admitted times inside any span of `W` ms (sorted input). */
function worstSpan(times: number[]): number {
  let worst = 0;
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[i]! <= times[j]! - W) i++;
    worst = Math.max(worst, j - i + 1);
  }
  return worst;
}

describe('slideWindow', () => {
  it('a lease counts as many of the wanted hits as fit; none when full', () => {
    const first = slideWindow(null, 10, at(12.5), W, 5_000, 7);
    expect(first.hit).toMatchObject({ allowed: true, granted: 7, count: 7, remaining: 3 });
    const second = slideWindow(first.state, 10, at(13), W, 5_000, 7);
    expect(second.hit).toMatchObject({ allowed: true, granted: 3, count: 10, remaining: 0 });
    expect(second.state).toEqual({ buckets: [{ s: at(10), n: 10 }] });
    expect(slideWindow(second.state, 10, at(14), W, 5_000, 7).hit).toMatchObject({ allowed: false, granted: 0, count: 10 });
  });

  it('counts the first hit in its 5 s bucket', () => {
    const { state, hit } = slideWindow(null, 60, at(12.5), W);
    expect(state).toEqual({ buckets: [{ s: at(10), n: 1 }] });
    // The bucket [10 s, 15 s) counts until its end is a full window behind: at 75 s.
    expect(hit).toEqual({ allowed: true, granted: 1, limit: 60, count: 1, remaining: 59, resetMs: 75_000 - 12_500, retryAfterMs: 0 });
  });

  it('admits exactly `limit`, then rejects without changing the state', () => {
    const { state, rejected, admitted } = fill(null, 37, at(15));
    expect(admitted).toBe(37);
    expect(state).toEqual({ buckets: [{ s: at(15), n: 37 }] });
    expect(rejected).toMatchObject({ allowed: false, count: 37, remaining: 0 });
    expect(slideWindow(state, 37, at(15), W).state).toBe(state);
  });

  it('counts a bucket whole while any part of it overlaps the last minute, then drops it', () => {
    const state: BucketWindow = {
      buckets: [
        { s: at(0), n: 3 },
        { s: at(30), n: 2 },
      ],
    };
    // At 64.999 s the bucket [0 s, 5 s) still overlaps (4.999 s, 64.999 s]: 5 counted.
    expect(slideWindow(state, 10, at(64.999), W).hit).toMatchObject({ allowed: true, count: 6 });
    // At 65 s it has left: only the 30 s bucket and this hit count, and the old bucket is not written back.
    const later = slideWindow(state, 10, at(65), W);
    expect(later.hit).toMatchObject({ allowed: true, count: 3 });
    expect(later.state).toEqual({
      buckets: [
        { s: at(30), n: 2 },
        { s: at(65), n: 1 },
      ],
    });
  });

  it('says the earliest moment a hit is admitted again: when the oldest counted buckets leave', () => {
    const cases: Array<{ state: BucketWindow; limit: number; now: number; retryAt: number }> = [
      { state: { buckets: [{ s: at(15), n: 37 }] }, limit: 37, now: at(15), retryAt: at(80) },
      {
        state: {
          buckets: [
            { s: at(0), n: 4 },
            { s: at(20), n: 3 },
            { s: at(55), n: 3 },
          ],
        },
        limit: 10,
        now: at(58),
        retryAt: at(65),
      },
      {
        state: {
          buckets: [
            { s: at(0), n: 4 },
            { s: at(20), n: 3 },
            { s: at(55), n: 3 },
          ],
        },
        limit: 6,
        now: at(58),
        retryAt: at(85),
      },
      { state: { buckets: [{ s: at(10), n: 1 }] }, limit: 1, now: at(30), retryAt: at(75) },
    ];
    for (const { state, limit, now, retryAt } of cases) {
      const { hit } = slideWindow(state, limit, now, W);
      expect(hit.allowed).toBe(false);
      expect(now + hit.retryAfterMs).toBe(retryAt);
      expect(slideWindow(state, limit, retryAt - 1, W).hit.allowed, `${JSON.stringify(state)} at ${retryAt - 1 - S}`).toBe(false);
      expect(slideWindow(state, limit, retryAt, W).hit.allowed, `${JSON.stringify(state)} at ${retryAt - S}`).toBe(true);
    }
    expect(slideWindow(null, 0, at(20), W).hit).toMatchObject({ allowed: false, resetMs: 0, remaining: 0 });
  });

  it('keeps counting buckets a clock ahead of ours wrote (counts never run backwards)', () => {
    const ahead: BucketWindow = { buckets: [{ s: at(60), n: 25 }] };
    const { state, hit } = slideWindow(ahead, 30, at(59.9), W);
    expect(hit).toMatchObject({ allowed: true, count: 26, remaining: 4 });
    expect(state).toEqual({
      buckets: [
        { s: at(55), n: 1 },
        { s: at(60), n: 25 },
      ],
    });
  });

  it('keeps at most window / bucket + 1 buckets whatever the traffic', () => {
    let state: BucketWindow | null = null;
    for (let t = at(0); t < at(600); t += 250) state = slideWindow(state, 1_000_000, t, W).state;
    expect(state!.buckets.length).toBeLessThanOrEqual(W / BUCKET_MS + 1);
  });

  it('never admits more than `limit` in any 60 s span, for a burst straddling a minute edge or a greedy client', () => {
    const limit = 120;
    // A burst just before a minute edge, another just after it, then a hit every 50 ms for ten minutes.
    let state: BucketWindow | null = null;
    const admittedAt: number[] = [];
    for (const t of [at(59.9), at(60.1)]) {
      for (let i = 0; i < 2 * limit; i++) {
        const r = slideWindow(state, limit, t, W);
        state = r.state;
        if (r.hit.allowed) admittedAt.push(t);
      }
    }
    expect(admittedAt.length).toBe(limit);
    for (let t = at(60.2); t < at(660); t += 50) {
      const r = slideWindow(state, limit, t, W);
      state = r.state;
      if (r.hit.allowed) admittedAt.push(t);
    }
    expect(worstSpan(admittedAt)).toBe(limit);
    // The greedy client still gets `limit` per 60-65 s: at least 9 windows' worth over ten minutes.
    expect(admittedAt.length).toBeGreaterThanOrEqual(9 * limit);

    // A client within its limit (one hit every 0.55 s = 109/min against 120) is never refused.
    state = null;
    let refused = 0;
    for (let t = at(0.3); t < at(600); t += 550) {
      const r = slideWindow(state, limit, t, W);
      state = r.state;
      if (!r.hit.allowed) refused += 1;
    }
    expect(refused).toBe(0);
  });
});
