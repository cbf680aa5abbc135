import { describe, expect, it } from 'vitest';
import { screenshotPalette } from './screenshot.ts';
import { canvas, fillRect } from './test-images.test-support.ts';

function page() {
  const img = canvas(256, 160, [255, 255, 255]);
  fillRect(img, 0, 0, 256, 30, [15, 23, 42]); // dark header
  fillRect(img, 20, 60, 80, 20, [91, 61, 245]); // call-to-action button
  fillRect(img, 20, 100, 200, 4, [100, 116, 139]); // grey text line
  fillRect(img, 150, 50, 90, 90, [250, 204, 21]); // hero illustration
  return img;
}

describe('screenshotPalette', () => {
  it.each([2, 3, 5])('returns exactly %i colors summing to 100', (n) => {
    const colors = screenshotPalette(page(), n);
    expect(colors).toHaveLength(n);
    expect(colors.reduce((s, c) => s + c.percentage, 0)).toBe(100);
    expect(new Set(colors.map((c) => c.hex)).size).toBe(n);
    expect(colors.every((c) => c.source === 'screenshot')).toBe(true);
  });

  it('reports the white page background as the dominant color', () => {
    expect(screenshotPalette(page(), 5)[0]!.hex).toBe('#FFFFFF');
  });

  it('finds each painted region when asked for as many colors as there are', () => {
    expect(
      screenshotPalette(page(), 5)
        .map((c) => c.hex)
        .sort(),
    ).toEqual(['#0F172A', '#5B3DF5', '#64748B', '#FACC15', '#FFFFFF']);
  });

  it('returns fewer colors when the image has fewer distinct colors', () => {
    const img = canvas(50, 50, [255, 255, 255]);
    fillRect(img, 0, 0, 25, 50, [0, 0, 0]);
    expect(screenshotPalette(img, 12)).toHaveLength(2);
  });
});
