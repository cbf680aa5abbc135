import { describe, expect, it } from 'vitest';
import { nearestColorName } from './names.ts';

describe('nearestColorName', () => {
  it('names exact list entries by their own name', () => {
    expect(nearestColorName({ r: 0, g: 0, b: 0 })).toBe('Black');
    expect(nearestColorName({ r: 255, g: 255, b: 255 })).toBe('White');
  });

  it('names a brand color that is on no list by its perceptually nearest neighbour', () => {
    // Bank of America navy #012169 and a SaaS violet #5B3DF5
    expect(nearestColorName({ r: 1, g: 33, b: 105 })).toBe('Deep Sapphire');
    expect(nearestColorName({ r: 91, g: 61, b: 245 })).toMatch(/blue|violet|purple|indigo|han/i);
  });

  it('does not call a dark grey a blue', () => {
    expect(nearestColorName({ r: 35, g: 31, b: 32 })).not.toMatch(/blue/i);
  });
});
