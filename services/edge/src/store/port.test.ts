import { describe, expect, it } from 'vitest';
import { rollCounter, slideCounter, type WindowCounter } from './port.ts';

const W = 60_000;
// A real minute boundary (2025-03-01T10:00:00Z); `at(s)` is s seconds into that minute.
const S = Date.parse('2025-03-01T10:00:00.000Z');
const at = (seconds: number) => S + seconds * 1000;

/** Admits hits at `now` until one is rejected; returns the state and the rejection. */
function fill(state: WindowCounter | null, limit: number, now: number) {
  let admitted = 0;
  for (;;) {
    const r = slideCounter(state, limit, now, W);
    if (!r.hit.allowed) return { state: r.state, rejected: r.hit, admitted };
    state = r.state;
    admitted += 1;
  }
}

describe('slideCounter', () => {
  it('starts a window aligned to the minute and counts the first hit', () => {
    const { state, hit } = slideCounter(null, 60, at(12.5), W);
    expect(state).toEqual({ start: S, prev: 0, cur: 1 });
    // Empty again once this minute and the next have passed (the hit weighs on the next minute too).
    expect(hit).toEqual({ allowed: true, limit: 60, count: 1, remaining: 59, resetMs: 2 * W - 12_500, retryAfterMs: 0 });
  });

  it('admits exactly `limit` in a fresh window, then rejects without changing the counts', () => {
    const { state, rejected, admitted } = fill(null, 37, at(15));
    expect(admitted).toBe(37);
    expect(state).toEqual({ start: S, prev: 0, cur: 37 });
    expect(rejected).toMatchObject({ allowed: false, count: 37, remaining: 0 });
    expect(slideCounter(state, 37, at(15), W).state).toBe(state);
  });

  it('weighs the previous window by the part of it still inside the sliding minute', () => {
    // 100 hits last minute, a quarter into this one: 75 of them still count.
    const prev: WindowCounter = { start: S - W, prev: 0, cur: 100 };
    const first = slideCounter(prev, 100, at(15), W);
    expect(first.state).toEqual({ start: S, prev: 100, cur: 1 });
    expect(first.hit).toMatchObject({ allowed: true, count: 76, remaining: 24 });
    const { admitted, rejected } = fill(prev, 100, at(15));
    expect(admitted).toBe(25);
    // Three quarters in, only 25 of last minute's hits count: room for 75 (minus the 25 taken).
    const later = fill({ start: S, prev: 100, cur: 25 }, 100, at(45));
    expect(later.admitted).toBe(50);
    // Rejected a quarter in with 25 counted: admitted again once 74 of the old hundred weigh, at 15.6 s.
    expect(rejected.retryAfterMs).toBe(600);
  });

  it('says the earliest moment a hit is admitted again, to the millisecond', () => {
    const cases: Array<{ state: WindowCounter; limit: number; now: number }> = [
      { state: { start: S, prev: 0, cur: 37 }, limit: 37, now: at(15) }, // next minute, once 1/37 of this one has decayed
      { state: { start: S, prev: 100, cur: 25 }, limit: 100, now: at(15) }, // later this minute
      { state: { start: S, prev: 10, cur: 10 }, limit: 10, now: at(59) }, // full on its own: next minute
      { state: { start: S, prev: 3, cur: 1 }, limit: 1, now: at(30) }, // a limit of one: only when nothing counts
      { state: { start: S, prev: 1_000_000, cur: 0 }, limit: 1_000_000, now: at(0) },
      { state: { start: S, prev: 7, cur: 4 }, limit: 10, now: at(3.25) },
    ];
    for (const { state, limit, now } of cases) {
      const { hit } = slideCounter(state, limit, now, W);
      expect(hit.allowed).toBe(false);
      const retryAt = now + hit.retryAfterMs;
      expect(slideCounter(state, limit, retryAt - 1, W).hit.allowed, `${JSON.stringify(state)} at ${now - S}`).toBe(false);
      expect(slideCounter(state, limit, retryAt, W).hit.allowed, `${JSON.stringify(state)} at ${now - S}`).toBe(true);
    }
    expect(slideCounter({ start: S, prev: 0, cur: 37 }, 37, at(15), W).hit.retryAfterMs).toBe(45_000 + 1622);
    expect(slideCounter({ start: S, prev: 10, cur: 10 }, 10, at(59), W).hit.retryAfterMs).toBe(1000 + 6000);
    expect(slideCounter({ start: S, prev: 3, cur: 1 }, 1, at(30), W).hit.retryAfterMs).toBe(30_000 + W);
  });

  it('rolls the counts at window boundaries and forgets what is two windows old', () => {
    expect(rollCounter({ start: S - W, prev: 5, cur: 40 }, at(0), W)).toEqual({ start: S, prev: 40, cur: 0 });
    expect(rollCounter({ start: S - W, prev: 5, cur: 40 }, S - 1, W)).toEqual({ start: S - W, prev: 5, cur: 40 });
    expect(rollCounter({ start: S - 2 * W, prev: 5, cur: 40 }, at(0), W)).toEqual({ start: S, prev: 0, cur: 0 });
    // At the very start of a window the previous one weighs fully.
    expect(fill({ start: S - W, prev: 0, cur: 40 }, 50, at(0)).admitted).toBe(10);
    expect(slideCounter({ start: S - 2 * W, prev: 50, cur: 50 }, 50, at(0), W).hit).toMatchObject({ allowed: true, count: 1, remaining: 49 });
  });

  it('treats a clock behind the stored window as that window\'s start', () => {
    const ahead: WindowCounter = { start: S + W, prev: 20, cur: 5 };
    const { state, hit } = slideCounter(ahead, 30, at(59.9), W);
    expect(state).toEqual({ start: S + W, prev: 20, cur: 6 });
    expect(hit).toMatchObject({ allowed: true, count: 26, remaining: 4 });
  });

  it('reports when the counts are empty again', () => {
    expect(slideCounter({ start: S - W, prev: 0, cur: 9 }, 5, at(20), W).hit).toMatchObject({ allowed: false, resetMs: 40_000 });
    expect(slideCounter(null, 0, at(20), W).hit).toMatchObject({ allowed: false, resetMs: 0, remaining: 0, retryAfterMs: 40_000 });
  });

  it('never admits more than `limit` per fixed window nor 2 x limit in any sliding minute, and admits an even rate below the limit', () => {
    const limit = 120;
    // A greedy client: a burst at the end of a minute, then a hit every 50 ms for ten minutes.
    const burst = fill(null, limit, at(-0.5));
    let state: WindowCounter | null = burst.state;
    const admittedAt: number[] = Array.from({ length: burst.admitted }, () => at(-0.5));
    for (let t = at(0); t < at(600); t += 50) {
      const r = slideCounter(state, limit, t, W);
      state = r.state;
      if (r.hit.allowed) admittedAt.push(t);
    }
    const perWindow = new Map<number, number>();
    for (const t of admittedAt) perWindow.set(Math.floor(t / W), (perWindow.get(Math.floor(t / W)) ?? 0) + 1);
    expect(Math.max(...perWindow.values())).toBe(limit); // the burst's window
    expect([...perWindow.values()].every((n) => n <= limit)).toBe(true);
    let worstMinute = 0;
    for (let i = 0, j = 0; j < admittedAt.length; j++) {
      while (admittedAt[i]! <= admittedAt[j]! - W) i++;
      worstMinute = Math.max(worstMinute, j - i + 1);
    }
    expect(worstMinute).toBeGreaterThan(limit); // the approximation is not a log...
    expect(worstMinute).toBeLessThan(2 * limit); // ...but bounded
    // Over ten minutes the greedy client gets the limit's worth, within one window's count.
    expect(Math.abs(admittedAt.length - 11 * limit)).toBeLessThanOrEqual(limit);

    // A client well within its limit (one hit every 0.55 s = 109/min against 120) is never refused.
    state = null;
    let refused = 0;
    for (let t = at(0.3); t < at(600); t += 550) {
      const r = slideCounter(state, limit, t, W);
      state = r.state;
      if (!r.hit.allowed) refused += 1;
    }
    expect(refused).toBe(0);
  });
});
