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

/** A logo file larger than this is not decoded in the renderer's own process: the browser captures it as shown. */
const MAX_LOGO_FILE_BYTES = 4 * 1024 * 1024;

/**
 * An image file (PNG, JPEG, GIF, WebP, AVIF, SVG) decoded and fitted as PNG into the box it is shown
 * in (`shown`, CSS px) and into `max` x `max` px, or null when sharp cannot read it (ICO, BMP, a broken
 * file). Never enlarged; SVG is drawn at twice its own size first, so a logo shown larger than its
 * declared size stays sharp. The size a capture of the element would have: the brand analyzer's
 * palette reads every pixel, and 512 px files cost its process twice the memory (bench: brand peak
 * PSS 110 -> 225 MB). Bounded: files over 4 MB, images over 40 megapixels and decodes over 2 s are
 * refused (the bytes are the site's, and this runs outside the browser's sandbox).
 */
export async function rasterFromFile(body: Buffer, shown?: { width: number; height: number }, max = 512): Promise<PngImage | null> {
  if (body.length === 0 || body.length > MAX_LOGO_FILE_BYTES) return null;
  const svg = /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^>]*>\s*)?<svg\b/i.test(body.toString('utf8', 0, 1000));
  const width = Math.min(max, Math.ceil(shown?.width ?? max));
  const height = Math.min(max, Math.ceil(shown?.height ?? max));
  try {
    const { data, info } = await sharp(body, { density: svg ? 144 : 72, limitInputPixels: 40_000_000, animated: false })
      .timeout({ seconds: 2 })
      .resize({ width, height, fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer({ resolveWithObject: true });
    return info.width >= 2 && info.height >= 2 ? { png: data.toString('base64'), width: info.width, height: info.height } : null;
  } catch {
    return null;
  }
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
 * behind it, or null when it cannot be captured. With the page's DevTools session, between two
 * switches of the default background (transparent, then back):
 * - an element wholly inside the viewport (a header logo, nearly always): one animation frame
 *   awaited in the page and its box read there, then one `Page.captureScreenshot` clipped from the
 *   viewport's own corner to the element's far corner, cut to the box and scaled by sharp. A clip
 *   of the element's box alone makes the browser move its viewport to the clip first, and on a
 *   loaded machine the frame it took was sometimes one from before the move: the page's top-left
 *   corner at the logo's size (services/renderer/bench/logo-raster-race.ts, the microdata fixture
 *   of test/e2e/logo-placements.test.ts with two busy processes beside the renderer: 7 of 270
 *   rasters held the page's heading or nothing, and the brand colour came from the text, #000000;
 *   with the corner clip, which moves nothing, 0 of 360).
 *   A capture of the whole viewport moves nothing either but took 160-180 ms to encode as PNG on the
 *   bench pages; the corner clip takes ~35 ms;
 * - an element outside it is first scrolled to by Playwright (it waits until the element stands
 *   still), then captured the same way; one larger than the viewport as Playwright measures its box,
 *   in one capture of that box, scaled by the browser.
 * `render.logos` on the bench pages: 79-99 -> 64-67 ms (Playwright's wait is no longer in the common
 * path). A registered element (`RegisteredElement`) is measured by one page call, and gets a
 * Playwright handle only when it must be scrolled to: brand-saas's inline SVG logo, `render.logos`
 * p50 84 / 89 -> 56 / 54 ms (trace-breakdown /brand, 10 requests, alternating, 2026-11-26).
 * Playwright's element screenshot pauses animations in every frame, waits for fonts and
 * captures at full size for sharp to scale: used only where no session exists. Animations are not
 * paused: a logo is captured as it stands.
 */
export async function rasterizeElement(
  target: ElementHandle | RegisteredElement,
  timeoutMs: number,
  session?: CDPSession,
  max = 512,
): Promise<PngImage | null> {
  if (!session) {
    const el = await handleOf(target);
    return el ? rasterizeWithPlaywright(el, timeoutMs, max) : null;
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('logo capture timed out')), Math.max(1, timeoutMs))));
  const inTime = <T>(p: Promise<T>): Promise<T> => Promise.race([p, late]);
  const measure = () => inTime(onElement(target, measureShown));
  try {
    await session.send('Emulation.setDefaultBackgroundColorOverride', { color: { r: 0, g: 0, b: 0, a: 0 } });
    let seen = await measure();
    if (!seen || seen.width < 2 || seen.height < 2) return null;
    if (!seen.inside) {
      const el = await handleOf(target);
      if (!el) return null;
      await el.scrollIntoViewIfNeeded({ timeout: Math.max(1, timeoutMs) });
      seen = await measure();
      if (!seen || seen.width < 2 || seen.height < 2) return null;
      if (!seen.inside) return await inTime(captureBox(el, session, max)); // larger than the viewport
    }
    // From the viewport's own corner to the element's far corner: the clip's origin is where the
    // viewport already is, so even a frame from before the capture's own move holds this region.
    const corner = { x: seen.scrollX, y: seen.scrollY, width: Math.ceil(seen.x + seen.width), height: Math.ceil(seen.y + seen.height), scale: 1 };
    const shot = await inTime(session.send('Page.captureScreenshot', { format: 'png', clip: corner, captureBeyondViewport: false }));
    return await cropOf(Buffer.from(shot.data, 'base64'), seen, max);
  } finally {
    clearTimeout(timer);
    await session.send('Emulation.setDefaultBackgroundColorOverride', {}).catch(() => undefined);
  }
}

/**
 * An element the renderer's collector registered in the page (`Symbol.for('enrich.elements')`): the
 * list it is in (`img`, `svg`, ...) and its index there. Reached by one page call each time, without
 * an element handle: Playwright builds a handle's preview with its injected script, whose first use
 * in a page compiles it on the page's main thread (30-65 ms measured on the bench's shop page,
 * 2026-11-26), and a logo inside the viewport needs no handle at all.
 */
export interface RegisteredElement {
  page: Page;
  list: string;
  index: number;
}

/** The registered element's handle, or the handle given; null when the element is gone. */
export async function handleOf(target: ElementHandle | RegisteredElement): Promise<ElementHandle | null> {
  if (!('list' in target)) return target;
  const found = await target.page.evaluateHandle(
    ({ list, index }) => (window as unknown as Record<symbol, Record<string, Element[]> | undefined>)[Symbol.for('enrich.elements')]?.[list]?.[index] ?? null,
    { list: target.list, index: target.index },
  );
  return found.asElement();
}

/** `fn` run on the element in the page (null for a registered element that is gone); `fn` must be self-contained. */
export async function onElement<R>(target: ElementHandle | RegisteredElement, fn: (e: Element | null) => R | Promise<R>): Promise<R> {
  // An ElementHandle's node is an element (the cast: Playwright types it as any Node).
  if (!('list' in target)) return (await target.evaluate(fn as unknown as (n: Node) => R | Promise<R>)) as R;
  const element = `(window[Symbol.for('enrich.elements')]?.[${JSON.stringify(target.list)}]?.[${Number(target.index)}] ?? null)`;
  return (await target.page.evaluate(`(${fn.toString()})(${element})`)) as R;
}

/** In the page: a frame (the background switch, and a scroll, drawn), then the element's box where the page has it now. */
async function measureShown(e: Element | null) {
  if (!e) return null;
  // A lazy loader's placeholder (a data: pixel with the file in data-src) does not show the image:
  // nothing to capture here; the raster plan's next ref loads the file itself.
  if (e instanceof HTMLImageElement && e.currentSrc.startsWith('data:') && (e.dataset['src'] || e.dataset['lazySrc'] || e.dataset['original'])) return null;
  const frame = () => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const isInside = (b: DOMRect) => b.left >= 0 && b.top >= 0 && b.right <= innerWidth && b.bottom <= innerHeight;
  await frame();
  let b = e.getBoundingClientRect();
  // An image in view that is still loading (a loading=lazy one starts once scrolled to) is waited for, at most 1 s.
  if (isInside(b) && e instanceof HTMLImageElement && !e.complete) {
    await Promise.race([e.decode().catch(() => undefined), new Promise((r) => setTimeout(r, 1_000))]);
    await frame();
    b = e.getBoundingClientRect();
  }
  return { x: b.left, y: b.top, width: b.width, height: b.height, scrollX, scrollY, inside: isInside(b) };
}

/** The box (viewport CSS px; the captures are at device scale 1) cut from a capture of the viewport's corner, fitted into `max` x `max`. */
async function cropOf(capture: Buffer, box: { x: number; y: number; width: number; height: number }, max: number): Promise<PngImage | null> {
  const meta = await sharp(capture).metadata();
  const left = Math.max(0, Math.floor(box.x));
  const top = Math.max(0, Math.floor(box.y));
  const width = Math.min((meta.width ?? 0) - left, Math.ceil(box.x + box.width) - left);
  const height = Math.min((meta.height ?? 0) - top, Math.ceil(box.y + box.height) - top);
  if (width < 2 || height < 2) return null;
  const { data, info } = await sharp(capture)
    .extract({ left, top, width, height })
    .resize({ width: max, height: max, fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { png: data.toString('base64'), width: info.width, height: info.height };
}

/** An element larger than the viewport, scrolled to: one capture of its box as Playwright measures it, scaled by the browser. */
async function captureBox(el: ElementHandle, session: CDPSession, max: number): Promise<PngImage | null> {
  const quads = await el.boundingBox();
  if (!quads) return null;
  const scroll = await el.evaluate(() => ({ x: scrollX, y: scrollY }));
  const box = { x: quads.x + scroll.x, y: quads.y + scroll.y, width: quads.width, height: quads.height };
  if (box.width < 2 || box.height < 2) return null;
  const scale = Math.min(1, max / box.width, max / box.height);
  const shot = await session.send('Page.captureScreenshot', { format: 'png', clip: { ...box, scale }, captureBeyondViewport: false });
  const png = Buffer.from(shot.data, 'base64');
  // The size the browser encoded (the IHDR chunk), not arithmetic on the scale.
  return { png: shot.data, width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
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
