/**
 * Page and element captures. Playwright encodes only PNG and JPEG; WebP is converted with sharp.
 * Full-page captures are cut at 16 383 px, the largest height every format (WebP) can hold.
 */
import type { ElementHandle, Page } from 'playwright-core';
import sharp from 'sharp';
import type { PngImage, ScreenshotFormat } from '@enrich/shared/contracts';

export const MAX_CAPTURE_HEIGHT = 16_383;
const QUALITY = 80;

export interface Capture {
  body: Buffer;
  format: ScreenshotFormat;
  width: number;
  height: number;
  contentType: string;
  capturedAt: Date;
}

export async function capturePage(
  page: Page,
  opts: { format: ScreenshotFormat; fullPage: boolean; documentHeight: number; viewportWidth: number; timeoutMs: number },
): Promise<Capture> {
  const type = opts.format === 'jpeg' ? 'jpeg' : 'png';
  const tooTall = opts.fullPage && opts.documentHeight > MAX_CAPTURE_HEIGHT;
  const capturedAt = new Date();
  const raw = await page.screenshot({
    type,
    ...(type === 'jpeg' ? { quality: QUALITY } : {}),
    fullPage: opts.fullPage,
    ...(tooTall ? { clip: { x: 0, y: 0, width: opts.viewportWidth, height: MAX_CAPTURE_HEIGHT } } : {}),
    animations: 'disabled',
    caret: 'hide',
    timeout: Math.max(1, opts.timeoutMs),
  });
  const body = opts.format === 'webp' ? await sharp(raw).webp({ quality: QUALITY }).toBuffer() : raw;
  const meta = await sharp(body).metadata();
  return { body, format: opts.format, width: meta.width ?? 0, height: meta.height ?? 0, contentType: `image/${opts.format}`, capturedAt };
}

/** The top viewport of a capture, downscaled to at most `maxWidth` px wide, as PNG. */
export async function thumbnailOf(image: Buffer, viewport: { width: number; height: number }, maxWidth = 256): Promise<PngImage> {
  const meta = await sharp(image).metadata();
  const width = Math.min(meta.width ?? viewport.width, viewport.width);
  const height = Math.min(meta.height ?? viewport.height, viewport.height);
  const { data, info } = await sharp(image)
    .extract({ left: 0, top: 0, width, height })
    .resize({ width: Math.min(maxWidth, width), withoutEnlargement: true })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { png: data.toString('base64'), width: info.width, height: info.height };
}

/** An element screenshot as PNG fitting in `max` x `max` px, or null when it cannot be captured. */
export async function rasterizeElement(el: ElementHandle, timeoutMs: number, max = 512): Promise<PngImage | null> {
  const box = await el.boundingBox();
  if (!box || box.width < 2 || box.height < 2) return null;
  const raw = await el.screenshot({ type: 'png', omitBackground: true, animations: 'disabled', timeout: Math.max(1, timeoutMs) });
  const { data, info } = await sharp(raw)
    .resize({ width: max, height: max, fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { png: data.toString('base64'), width: info.width, height: info.height };
}
