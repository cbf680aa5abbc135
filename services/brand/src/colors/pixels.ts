/** PNG decoding for the rasters in a snapshot (logo element screenshots, the page thumbnail). */
import sharp from 'sharp';

export type RgbaImage = { data: Uint8Array; width: number; height: number };

/** Caps the decoded size: the renderer sends small rasters, a hostile or buggy one must not cost gigabytes. */
const MAX_PIXELS = 4_000_000;

/** Decodes base64 PNG to RGBA pixels; null when the data is not a decodable image. */
export async function decodePng(base64: string): Promise<RgbaImage | null> {
  try {
    const { data, info } = await sharp(Buffer.from(base64, 'base64'), { limitInputPixels: MAX_PIXELS })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 4) return null;
    return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  } catch {
    return null;
  }
}
