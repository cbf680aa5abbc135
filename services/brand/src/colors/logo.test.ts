import { describe, expect, it } from 'vitest';
import { logoPalette } from './logo.ts';
import { decodePng } from './pixels.ts';
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

describe('decodePng', () => {
  it('scales a raster of more than 48 000 pixels down by nearest pixel, so no blended colour appears', async () => {
    const sharp = (await import('sharp')).default;
    // Left half red, right half blue, 1024 x 512.
    const png = await sharp({ create: { width: 1024, height: 512, channels: 4, background: '#ff0000' } })
      .composite([{ input: { create: { width: 512, height: 512, channels: 4, background: '#0000ff' } }, left: 512, top: 0 }])
      .png()
      .toBuffer();
    const image = (await decodePng(png.toString('base64')))!;
    expect(image).toMatchObject({ width: 309, height: 154 });
    const colours = new Set<string>();
    for (let i = 0; i < image.width * image.height; i++) colours.add([...image.data.subarray(i * 4, i * 4 + 3)].join(','));
    expect([...colours].sort()).toEqual(['0,0,255', '255,0,0']);
    const small = (await decodePng(
      (
        await sharp({ create: { width: 200, height: 60, channels: 4, background: '#00ff00' } })
          .png()
          .toBuffer()
      ).toString('base64'),
    ))!;
    expect(small).toMatchObject({ width: 200, height: 60 });
  });
});
