/** PNG decoding for the rasters in a snapshot (logo element screenshots, the page thumbnail). */
import sharp from 'sharp';

export type RgbaImage = { data: Uint8Array; width: number; height: number };

/** Caps the decoded size: the renderer sends small rasters, a hostile or buggy one must not cost gigabytes. */
const MAX_PIXELS = 4_000_000;
/**
 * Larger images are scaled down (nearest pixel: no new blended colours) to at most this many pixels
 * before the palette reads them: it holds a few objects per pixel. A usual header logo (~300 x 80)
 * is under it; a 512 x 512 raster of many colours took this process from 100 to 525 MB RSS
 * in 20 palettes (387 MB capped at 320 x 320, 2026-11-26).
 */
const MAX_PALETTE_PIXELS = 48_000;

/** Decodes base64 PNG to RGBA pixels, at most MAX_PALETTE_PIXELS of them; null when the data is not a decodable image. */
export async function decodePng(base64: string): Promise<RgbaImage | null> {
  try {
    const input = Buffer.from(base64, 'base64');
    const { width = 0, height = 0 } = await sharp(input, { limitInputPixels: MAX_PIXELS }).metadata();
    const scale = Math.min(1, Math.sqrt(MAX_PALETTE_PIXELS / Math.max(1, width * height)));
    const image = sharp(input, { limitInputPixels: MAX_PIXELS });
    if (scale < 1)
      image.resize({ width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)), fit: 'fill', kernel: 'nearest' });
    const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 4) return null;
    return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  } catch {
    return null;
  }
}
