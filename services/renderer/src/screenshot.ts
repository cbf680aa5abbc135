/**
 * Page and element captures. Playwright encodes only PNG and JPEG; WebP is converted with sharp.
 * A capture is the viewport's width and at most SCREENSHOT_MAX_PIXELS in area and 16 383 px (the
 * largest height every format, WebP, can hold) in height; the page's height is measured by the
 * browser's layout (CDP), never asked of the page's scripts, which can report anything. Cut
 * captures say so (`clipped`).
 */
import type { CDPSession, ElementHandle, Page } from 'playwright-core';
import sharp from 'sharp';
import type { PngImage, ScreenshotFormat } from '@enrich/shared/contracts';

// libvips' operation cache keeps up to 50 MB of decoded images for repeats that never come here
// (every capture is new): off, so the renderer's node process does not hold them.
sharp.cache(false);

export const MAX_CAPTURE_HEIGHT = 16_383;
const QUALITY = 80;

export interface Capture {
  body: Buffer;
  format: ScreenshotFormat;
  width: number;
  height: number;
  /** True when the page was taller than the capture could be. */
  clipped: boolean;
  contentType: string;
  capturedAt: Date;
}

/** The page's content size in CSS pixels as the browser laid it out. */
export async function layoutSize(page: Page): Promise<{ width: number; height: number }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const metrics = await cdp.send('Page.getLayoutMetrics');
    return { width: Math.ceil(metrics.cssContentSize.width), height: Math.ceil(metrics.cssContentSize.height) };
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/** The area to capture: full width, the wanted height cut to the format limit and the pixel budget. */
export function captureArea(wantedHeight: number, width: number, maxPixels: number): { width: number; height: number; clipped: boolean } {
  const limit = Math.max(1, Math.min(MAX_CAPTURE_HEIGHT, Math.floor(maxPixels / width)));
  const height = Math.max(1, Math.min(wantedHeight, limit));
  return { width, height, clipped: wantedHeight > height };
}

export async function capturePage(
  page: Page,
  opts: { format: ScreenshotFormat; fullPage: boolean; viewport: { width: number; height: number }; maxPixels: number; timeoutMs: number },
): Promise<Capture> {
  const type = opts.format === 'jpeg' ? 'jpeg' : 'png';
  const wanted = opts.fullPage ? (await layoutSize(page)).height : opts.viewport.height;
  const area = captureArea(wanted, opts.viewport.width, opts.maxPixels);
  const capturedAt = new Date();
  const raw = await page.screenshot({
    type,
    ...(type === 'jpeg' ? { quality: QUALITY } : {}),
    fullPage: opts.fullPage,
    clip: { x: 0, y: 0, width: area.width, height: area.height },
    animations: 'disabled',
    caret: 'hide',
    timeout: Math.max(1, opts.timeoutMs),
  });
  const body = opts.format === 'webp' ? await sharp(raw).webp({ quality: QUALITY }).toBuffer() : raw;
  const meta = await sharp(body).metadata();
  return {
    body,
    format: opts.format,
    width: meta.width ?? 0,
    height: meta.height ?? 0,
    clipped: area.clipped,
    contentType: `image/${opts.format}`,
    capturedAt,
  };
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

/**
 * An element captured as PNG fitting in `max` x `max` px, transparent where the page paints nothing
 * behind it, or null when it cannot be captured. With the page's DevTools session: Playwright's
 * scroll and box, then one `Page.captureScreenshot` of the box, scaled by the browser, between two
 * switches of the default background. Playwright's element screenshot also pauses animations in
 * every frame, waits for fonts and captures at full size for sharp to scale (`render.logos` in
 * test/bench/trace-breakdown.ts: 114 -> 93-96 ms on bench-saas). Animations are not paused: a logo
 * is captured as it stands. Playwright's wait for the element to stand still stays: without it
 * (the page's own box, two animation frames, the browser's content quads: each tried) the capture
 * sometimes held the pixels of another place of the page on a loaded machine
 * (test/e2e/logo-placements.test.ts with two busy loops beside it, 2-3 of 8 runs; 114 -> 61 ms).
 */
export async function rasterizeElement(el: ElementHandle, timeoutMs: number, session?: CDPSession, max = 512): Promise<PngImage | null> {
  if (!session) return rasterizeWithPlaywright(el, timeoutMs, max);
  // Playwright's scroll (it waits until the element is stable) and its box (the browser's content
  // quads, in viewport coordinates), moved into document coordinates, which a clip is given in.
  await el.scrollIntoViewIfNeeded({ timeout: Math.max(1, timeoutMs) });
  const quads = await el.boundingBox();
  if (!quads) return null;
  const scroll = await el.evaluate(() => ({ x: scrollX, y: scrollY }));
  const box = { x: quads.x + scroll.x, y: quads.y + scroll.y, width: quads.width, height: quads.height };
  if (box.width < 2 || box.height < 2) return null;
  const scale = Math.min(1, max / box.width, max / box.height);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('logo capture timed out')), Math.max(1, timeoutMs))));
  try {
    await session.send('Emulation.setDefaultBackgroundColorOverride', { color: { r: 0, g: 0, b: 0, a: 0 } });
    const shot = await Promise.race([session.send('Page.captureScreenshot', { format: 'png', clip: { ...box, scale }, captureBeyondViewport: false }), late]);
    const png = Buffer.from(shot.data, 'base64');
    // The size the browser encoded (the IHDR chunk), not arithmetic on the scale.
    return { png: shot.data, width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  } finally {
    clearTimeout(timer);
    await session.send('Emulation.setDefaultBackgroundColorOverride', {}).catch(() => undefined);
  }
}

/** Playwright's element screenshot, scaled with sharp: where the page has no DevTools session of ours. */
async function rasterizeWithPlaywright(el: ElementHandle, timeoutMs: number, max: number): Promise<PngImage | null> {
  const box = await el.boundingBox();
  if (!box || box.width < 2 || box.height < 2) return null;
  const raw = await el.screenshot({ type: 'png', omitBackground: true, animations: 'disabled', timeout: Math.max(1, timeoutMs) });
  const { data, info } = await sharp(raw)
    .resize({ width: max, height: max, fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { png: data.toString('base64'), width: info.width, height: info.height };
}
