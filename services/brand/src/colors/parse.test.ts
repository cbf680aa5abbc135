import { describe, expect, it } from 'vitest';
import { parseCssColor, toHex, toRgbString } from './parse.ts';

describe('parseCssColor', () => {
  it.each([
    ['#5b3df5', '#5B3DF5'],
    ['#fff', '#FFFFFF'],
    ['#f00a', '#FF0000'],
    ['#5B3DF580', '#5B3DF5'],
    ['rgb(91, 61, 245)', '#5B3DF5'],
    ['rgba(91,61,245,0.4)', '#5B3DF5'],
    ['rgb(91 61 245 / 50%)', '#5B3DF5'],
    ['hsl(0, 100%, 50%)', '#FF0000'],
    ['hsl(0deg 100% 50%)', '#FF0000'],
    ['RebeccaPurple', '#663399'],
  ])('%s -> %s', (input, hex) => {
    const c = parseCssColor(input);
    expect(c && toHex(c)).toBe(hex);
  });

  it.each(['transparent', 'inherit', 'currentColor', 'rgba(0,0,0,0)', 'var(--x)', 'bold', ''])('%s is no color', (v) => {
    expect(parseCssColor(v)).toBeNull();
  });

  it('formats rgb without spaces', () => {
    expect(toRgbString({ r: 1, g: 2, b: 3 })).toBe('rgb(1,2,3)');
  });
});
