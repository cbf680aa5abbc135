import { describe, expect, it } from 'vitest';
import { logoPalette } from './logo.ts';
import { blendRim, canvas, fillRect } from './test-images.test-support.ts';

const VIOLET = [91, 61, 245] as [number, number, number];
const BLACK = [17, 17, 17] as [number, number, number];
const WHITE = [255, 255, 255] as [number, number, number];

describe('logoPalette', () => {
  it('drops an opaque white background and the anti-aliased rim, keeping the exact brand hex', () => {
    const img = canvas(200, 60, WHITE);
    fillRect(img, 20, 10, 40, 40, VIOLET);
    blendRim(img, 20, 10, 40, 40, VIOLET, WHITE);
    fillRect(img, 80, 20, 100, 20, BLACK);
    blendRim(img, 80, 20, 100, 20, BLACK, WHITE);
    const colors = logoPalette(img);
    expect(colors.map((c) => c.hex)).toEqual(['#5B3DF5', '#111111']);
    expect(colors.reduce((s, c) => s + c.percentage, 0)).toBe(100);
    expect(colors[0]).toMatchObject({ color: 'rgb(91,61,245)', source: 'logo' });
  });

  it('puts a small accent before a dominant black wordmark', () => {
    const img = canvas(300, 60, [0, 0, 0, 0]);
    fillRect(img, 10, 10, 30, 30, [230, 30, 30]);
    fillRect(img, 60, 10, 220, 40, BLACK);
    const colors = logoPalette(img);
    expect(colors[0]!.hex).toBe('#E61E1E');
    expect(colors[1]!.hex).toBe('#111111');
    expect(colors[1]!.percentage).toBeGreaterThan(colors[0]!.percentage);
  });

  it('reports a truly monochrome logo in its neutral colors', () => {
    const img = canvas(120, 40, [0, 0, 0, 0]);
    fillRect(img, 10, 10, 100, 20, [35, 31, 32]);
    expect(logoPalette(img).map((c) => c.hex)).toEqual(['#231F20']);
  });

  it('ignores semi-transparent edge pixels of a transparent logo', () => {
    const img = canvas(100, 100, [0, 0, 0, 0]);
    fillRect(img, 20, 20, 60, 60, VIOLET);
    fillRect(img, 19, 19, 62, 1, [120, 120, 120, 90]);
    expect(logoPalette(img).map((c) => c.hex)).toEqual(['#5B3DF5']);
  });

  it('returns nothing for an empty (fully transparent) raster', () => {
    expect(logoPalette(canvas(10, 10, [0, 0, 0, 0]))).toEqual([]);
  });
});
