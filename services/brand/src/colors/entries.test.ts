import { describe, expect, it } from 'vitest';
import { integerPercentages } from './entries.ts';

describe('integerPercentages', () => {
  it('sums to exactly 100 where plain rounding would give 99 or 101', () => {
    expect(integerPercentages([1, 1, 1])).toEqual([34, 33, 33]);
    expect(integerPercentages([1, 1, 1, 1, 1, 1]).reduce((s, p) => s + p, 0)).toBe(100);
  });

  it('never lists a color at 0%', () => {
    const p = integerPercentages([10000, 5, 3]);
    expect(p.every((x) => x >= 1)).toBe(true);
    expect(p.reduce((s, x) => s + x, 0)).toBe(100);
  });
});
