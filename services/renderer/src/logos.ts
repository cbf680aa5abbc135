/**
 * The renderer's part of the logo decision. Which candidates are rasterised is not decided here:
 * `rasterPlan(rankLogoCandidates(...))` from `@enrich/shared/logos` is the brand analyzer's own
 * ranking, so the one raster taken is of its primary logo, whenever the page lets it.
 * This module only fetches what a browser would (the manifest's icons, `/favicon.ico`) and
 * turns refs into pixels.
 */
import type { Page, Response } from 'playwright-core';
import { SNAPSHOT_LIMITS, type LinkTag, type LogoRaster, type PngImage, type SiteIconLookup } from '@enrich/shared/contracts';
import { declaresIcon, firstRasterRefBeforeIcons, manifestHref, parseManifestIcons, rankLogoCandidates, rasterPlan, type LogoPage } from '@enrich/shared/logos';
import type { NetworkLog } from './network-log.ts';
import { interruptSessionOf } from './phases/context.ts';
import { onElement, rasterFromFile, rasterizeElement } from './screenshot.ts';

const L = SNAPSHOT_LIMITS;
/** Each lookup (manifest, favicon probe) gets at most this long. */
const LOOKUP_MS = 1_500;
const MANIFEST_MAX_CHARS = 200_000;

/**
 * GET through the page's own request context: the context's proxy is the egress proxy, so the
 * SSRF guard checks and pins the connection exactly as for the page's own requests. Never a fetch
 * from node.
 */
async function fetchThroughPage(page: Page, url: string, timeoutMs: number): Promise<{ status: number; type: string; body: Buffer } | null> {
  if (timeoutMs < 50) return null;
  try {
    const res = await page.request.get(url, { timeout: timeoutMs, maxRedirects: 3, failOnStatusCode: false });
    try {
      return { status: res.status(), type: res.headers()['content-type'] ?? '', body: await res.body() };
    } finally {
      await res.dispose().catch(() => undefined);
    }
  } catch {
    return null;
  }
}

/** The linked manifest's icons, and `/favicon.ico` when the page declares no icon and the site serves an image there. */
export async function lookUpSiteIcons(page: Page, links: readonly LinkTag[], pageUrl: string, until: number): Promise<SiteIconLookup> {
  const lookup: SiteIconLookup = { manifest: [], favicon: null };
  const manifest = manifestHref(links);
  const budget = (): number => Math.min(LOOKUP_MS, until - Date.now());
  const favicon = declaresIcon(links) ? null : faviconUrl(pageUrl);
  const [manifestRes, faviconRes] = await Promise.all([
    manifest ? fetchThroughPage(page, manifest, budget()) : null,
    favicon ? fetchThroughPage(page, favicon, budget()) : null,
  ]);
  if (manifest && manifestRes && manifestRes.status < 400) {
    lookup.manifest = parseManifestIcons(manifestRes.body.toString('utf8', 0, MANIFEST_MAX_CHARS), manifest, L.manifestIcons);
  }
  if (favicon && faviconRes && faviconRes.status < 400 && faviconRes.body.length > 0 && isImage(faviconRes.type, faviconRes.body)) lookup.favicon = favicon;
  return lookup;
}

function faviconUrl(pageUrl: string): string | null {
  try {
    const u = new URL('/favicon.ico', pageUrl);
    return /^https?:$/.test(u.protocol) ? u.href : null;
  } catch {
    return null;
  }
}

/** An image by its type or its first bytes (ICO, PNG, GIF, JPEG, SVG): soft 404 pages answer 200 with HTML. */
function isImage(type: string, body: Buffer): boolean {
  if (/^image\//i.test(type)) return true;
  const head = body.subarray(0, 8);
  if (head.length >= 4 && head.readUInt32BE(0) === 0x00000100) return true; // ICO
  if (head.length >= 4 && (head.readUInt32BE(0) === 0x89504e47 || head.readUInt32BE(0) === 0x47494638)) return true; // PNG, GIF
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return true; // JPEG
  return /^\s*(<\?xml[^>]*>\s*)?<svg\b/i.test(body.toString('utf8', 0, 200));
}

/** The primary logo (the shared ranking's top candidate) rasterised by the first of its refs that works, until `until`. */
export async function rasterizeLogos(
  page: Page,
  facts: LogoPage,
  until: number,
  wire?: NetworkLog,
): Promise<{ rasters: LogoRaster[]; from: 'file' | 'page' | null }> {
  for (const ref of rasterPlan(rankLogoCandidates(facts).candidates)) {
    if (Date.now() >= until) break;
    const raster = ref.startsWith('url:')
      ? { png: await rasterizeUrl(page, ref.slice(4), until), from: 'page' as const }
      : await rasterizeRef(page, ref, until, wire);
    if (raster.png) return { rasters: [{ ref, ...raster.png }], from: raster.from };
  }
  return { rasters: [], from: null };
}

/**
 * An element the collector registered (`img:<i>` / `svg:<i>`) as shown: an image drawn as its file is
 * from the file's bytes (`shownAsFile`, `rasterOfFile`), anything else captured by the browser.
 */
async function rasterizeRef(page: Page, ref: string, until: number, wire?: NetworkLog): Promise<{ png: PngImage | null; from: 'file' | 'page' }> {
  try {
    const shown = wire ? await shownAsFile(page, ref) : null;
    const fromFile = shown && wire ? await rasterOfFile(shown, wire, until) : null;
    if (fromFile) return { png: fromFile, from: 'file' };
    const [list, index] = ref.split(':') as [string, string];
    return { png: await rasterizeElement({ page, list, index: Number(index) }, Math.min(2_000, until - Date.now()), interruptSessionOf(page)), from: 'page' };
  } catch {
    return { png: null, from: 'page' }; // element gone or not capturable
  }
}

/**
 * The primary logo's raster from its file, begun before the page is captured: when the ranking's top
 * candidate outranks every site icon (`firstRasterRefBeforeIcons`: the lookups may still run) and its
 * first ref is an `<img>` shown as its file is. The one page call (what the image looks like) is made
 * here, before the capture; what is returned reads and decodes the file in this process while the
 * browser captures the page (render.logos waited 27-39 ms after the capture for it). Null when there
 * is nothing to begin: rasterizeLogos runs after the capture as before, and so it does when the
 * returned raster is null.
 */
export async function beginLogoFromFile(page: Page, facts: LogoPage, until: number, wire: NetworkLog): Promise<EarlyLogo | null> {
  const ref = firstRasterRefBeforeIcons(facts);
  if (!ref?.startsWith('img:')) return null;
  try {
    const shown = await shownAsFile(page, ref);
    if (!shown) return null;
    const raster = rasterOfFile(shown, wire, until).catch(() => null);
    return { ref, raster };
  } catch {
    return null;
  }
}

/** The primary logo's raster being read from its file while the page is captured. */
export type EarlyLogo = { ref: string; raster: Promise<PngImage | null> };

interface ShownFile {
  src: string;
  width: number;
  height: number;
}

/**
 * How a registered `<img>` (`img:<i>`) is shown, when it is shown as its file is: loaded, no CSS filter
 * on it or around it, no blend mode, not cropped by object-fit. Null when the browser must capture it.
 * Asked by index in one page call, not through an element handle: Playwright builds each handle's
 * preview with its injected script, whose first use in a page compiles it on the page's main thread
 * (30-65 ms measured on bench-shop, 2026-11-26).
 */
async function shownAsFile(page: Page, ref: string): Promise<ShownFile | null> {
  const [list, index] = ref.split(':');
  if (list !== 'img') return null;
  return onElement({ page, list, index: Number(index) }, (el) => {
    // A data: URL longer than a 4 MB file's base64 would be refused anyway; it is not sent over.
    if (!(el instanceof HTMLImageElement) || !el.complete || el.naturalWidth === 0 || !el.currentSrc || el.currentSrc.length > 6_000_000) return null;
    // A lazy loader's placeholder (a data: pixel with the file in data-src) is not the logo's file.
    if (el.currentSrc.startsWith('data:') && (el.dataset['src'] || el.dataset['lazySrc'] || el.dataset['original'])) return null;
    const own = getComputedStyle(el);
    if (own.mixBlendMode !== 'normal' || own.objectFit === 'cover' || own.objectFit === 'none') return null;
    for (let e: Element | null = el; e; e = e.parentElement) if (getComputedStyle(e).filter !== 'none') return null;
    const box = el.getBoundingClientRect();
    return { src: el.currentSrc, width: box.width, height: box.height };
  });
}

/**
 * An `<img>` shown as its file is (`shownAsFile`) rasterised from the file: its bytes are read from the
 * answer the page already has (DevTools keeps the body; no second fetch) or from its data: URL, and
 * decoded and fitted by sharp. A capture costs a frame for the box, two repaints of the whole page for
 * the transparent background and a PNG encode: `render.logos` 74-86 ms on the four bench pages
 * (2026-11-26, trace-breakdown /brand), where reading and decoding the file takes 10-25 ms.
 */
async function rasterOfFile(shown: ShownFile, wire: NetworkLog, until: number): Promise<PngImage | null> {
  const body = shown.src.startsWith('data:') ? dataUrlBytes(shown.src) : await responseBody(wire.imageResponse(shown.src), until);
  // At the size it is shown, as a capture would be (a shown box of nothing: the file's own size).
  return body ? rasterFromFile(body, shown.width >= 2 && shown.height >= 2 ? shown : undefined) : null;
}

/** The body of an image answer, unless it says it is larger than a logo file may be (rasterFromFile). */
async function responseBody(res: Response | undefined, until: number): Promise<Buffer | null> {
  if (!res || Number(res.headers()['content-length'] ?? 0) > 4 * 1024 * 1024) return null;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((r) => (timer = setTimeout(() => r(null), Math.max(0, Math.min(1_000, until - Date.now())))));
  try {
    return await Promise.race([res.body().catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The bytes of a `data:` URL (base64 or percent-encoded), or null when it is not one. */
export function dataUrlBytes(url: string): Buffer | null {
  const m = /^data:([^,]*?)(;base64)?,(.*)$/is.exec(url);
  if (!m) return null;
  try {
    return m[2] ? Buffer.from(m[3]!, 'base64') : Buffer.from(decodeURIComponent(m[3]!), 'utf8');
  } catch {
    return null;
  }
}

/** A declared logo the page does not show: loaded into the page as an image and screenshotted alone. */
async function rasterizeUrl(page: Page, src: string, until: number): Promise<Omit<LogoRaster, 'ref'> | null> {
  try {
    const loaded = await page.evaluate(
      async ({ src, wait }) => {
        // Hide everything else so the raster keeps the logo's own transparency instead of whatever the
        // page paints behind it; undone right after the screenshot.
        const style = document.createElement('style');
        style.id = 'enrich-logo-style';
        style.textContent = 'html, body { background: transparent !important } body > *:not([data-enrich-logo]) { visibility: hidden !important }';
        document.head.appendChild(style);
        const img = document.createElement('img');
        img.setAttribute('data-enrich-logo', '');
        img.style.cssText =
          'position:fixed;left:0;top:0;max-width:512px;max-height:512px;z-index:2147483647;background:transparent;margin:0;padding:0;border:0';
        const done = new Promise((r) => {
          img.onload = r;
          img.onerror = r;
        });
        img.src = src;
        document.body.appendChild(img);
        await Promise.race([done, new Promise((r) => setTimeout(r, wait))]);
        if (img.naturalWidth > 0) {
          await img.decode().catch(() => undefined); // decoded before it is captured
          // Registered beside the collector's elements, so the capture reaches it without a handle.
          const key = Symbol.for('enrich.elements');
          const w = window as unknown as Record<symbol, Record<string, Element[]> | undefined>;
          (w[key] ??= {}).declared = [img];
          return true;
        }
        img.remove();
        document.getElementById('enrich-logo-style')?.remove();
        return false;
      },
      { src, wait: Math.max(0, Math.min(2_000, until - Date.now())) },
    );
    if (!loaded) return null;
    const png = await rasterizeElement({ page, list: 'declared', index: 0 }, Math.min(2_000, until - Date.now()), interruptSessionOf(page));
    // The page is shown again for the element rasters that may follow in the plan.
    await page.evaluate(() => {
      document.querySelector('img[data-enrich-logo]')?.remove();
      document.getElementById('enrich-logo-style')?.remove();
    });
    return png;
  } catch {
    return null; // the declared logo did not load
  }
}
