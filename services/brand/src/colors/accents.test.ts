import { describe, expect, it } from 'vitest';
import type { ColorSample } from '@enrich/shared/contracts';
import { pageAccentColors } from './accents.ts';

const sample = (value: string, property: ColorSample['property'], role: ColorSample['role'], area: number): ColorSample => ({
  value,
  property,
  role,
  area,
  count: 1,
});

/** A typical light SaaS landing page: white background, near-black body text, grey footer, violet buttons and links. */
const landing: ColorSample[] = [
  sample('rgb(255, 255, 255)', 'background-color', 'body', 1440 * 4000),
  sample('rgb(17, 24, 39)', 'color', 'body', 400_000),
  sample('rgb(107, 114, 128)', 'color', 'footer', 40_000),
  sample('rgb(243, 244, 246)', 'background-color', 'footer', 1440 * 300),
  sample('rgb(91, 61, 245)', 'background-color', 'button', 2 * 180 * 48),
  sample('rgb(255, 255, 255)', 'color', 'button', 2 * 1200),
  sample('rgb(91, 61, 245)', 'color', 'link', 3000),
  sample('rgb(17, 24, 39)', 'color', 'heading', 60_000),
];

const noCss = { themeColor: null, rootVariables: {}, stylesheets: [] };

describe('pageAccentColors', () => {
  it('reports the button and link accent, not the white background or the black text', () => {
    const colors = pageAccentColors({ ...noCss, samples: landing });
    expect(colors.map((c) => c.hex)).toEqual(['#5B3DF5']);
    expect(colors[0]).toMatchObject({ percentage: 100, source: 'screenshot', color: 'rgb(91,61,245)' });
  });

  it('takes meta theme-color as strong evidence next to the page accents', () => {
    const colors = pageAccentColors({ ...noCss, samples: landing, themeColor: '#F97316' });
    expect(colors.map((c) => c.hex)).toEqual(['#5B3DF5', '#F97316']);
    expect(colors.reduce((s, c) => s + c.percentage, 0)).toBe(100);
  });

  it('reports neutrals for a truly monochrome page, ignoring one stray red error text', () => {
    const mono = [
      sample('rgb(255, 255, 255)', 'background-color', 'body', 1440 * 3000),
      sample('rgb(0, 0, 0)', 'color', 'body', 300_000),
      sample('rgb(0, 0, 0)', 'background-color', 'button', 200 * 48),
      sample('rgb(0, 0, 0)', 'color', 'link', 5000),
      sample('rgb(220, 38, 38)', 'color', 'other', 40),
    ];
    expect(
      pageAccentColors({ ...noCss, samples: mono })
        .map((c) => c.hex)
        .sort(),
    ).toEqual(['#000000', '#FFFFFF']);
  });

  it('finds a brand color that exists only as a CSS variable when there are no computed styles', () => {
    const css =
      ':root { --color-primary: #0EA5E9; --gray-100: #f3f4f6 } body { color: #111827; background: #fff } .btn { background: var(--color-primary) } a { color: var(--color-primary) }';
    expect(pageAccentColors({ ...noCss, samples: [], stylesheets: [css] })[0]!.hex).toBe('#0EA5E9');
  });

  it('uses a computed root variable named like a brand color', () => {
    const colors = pageAccentColors({ ...noCss, samples: landing.slice(0, 4), rootVariables: { '--brand': 'rgb(225, 29, 72)' } });
    expect(colors.map((c) => c.hex)).toEqual(['#E11D48']);
  });

  it('returns nothing when the page gives no color at all', () => {
    expect(pageAccentColors({ ...noCss, samples: [] })).toEqual([]);
  });
});
