/** Synthetic rasters for the color tests: rectangles of flat paint, with optional soft edges. */
import type { RgbaImage } from './pixels.ts';

export type Paint = [number, number, number, number?];

export function canvas(width: number, height: number, background: Paint): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  const img = { data, width, height };
  fillRect(img, 0, 0, width, height, background);
  return img;
}

export function fillRect(img: RgbaImage, x0: number, y0: number, w: number, h: number, [r, g, b, a = 255]: Paint): void {
  for (let y = y0; y < Math.min(img.height, y0 + h); y++) {
    for (let x = x0; x < Math.min(img.width, x0 + w); x++) {
      const i = (y * img.width + x) * 4;
      img.data.set([r, g, b, a], i);
    }
  }
}

/** Paints a one-pixel rim around a rectangle in the average of two paints, as anti-aliasing does. */
export function blendRim(img: RgbaImage, x0: number, y0: number, w: number, h: number, p: Paint, q: Paint): void {
  const mid: Paint = [(p[0] + q[0]) >> 1, (p[1] + q[1]) >> 1, (p[2] + q[2]) >> 1, 255];
  fillRect(img, x0 - 1, y0 - 1, w + 2, 1, mid);
  fillRect(img, x0 - 1, y0 + h, w + 2, 1, mid);
  fillRect(img, x0 - 1, y0, 1, h, mid);
  fillRect(img, x0 + w, y0, 1, h, mid);
}
