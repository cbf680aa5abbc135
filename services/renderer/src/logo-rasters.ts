/**
 * Logo rasters for the brand's colours: the chosen candidates' elements, and the logo the page
 * declares (JSON-LD or meta), each captured as a PNG with its own transparency. Moved unchanged
 * from render.ts.
 */
import type { Page } from 'playwright-core';
import { SNAPSHOT_LIMITS, type Image, type LogoRaster } from '@enrich/shared/contracts';
import type { collectDocument } from './collect/document.ts';
import { declaredLogoUrl, pickLogoCandidates } from './logos.ts';
import { rasterizeElement } from './screenshot.ts';

const L = SNAPSHOT_LIMITS;

export async function rasterizeLogos(
  page: Page,
  images: Image[],
  svgs: Parameters<typeof pickLogoCandidates>[1],
  doc: ReturnType<typeof collectDocument>,
  pageUrl: string,
  until: number,
): Promise<LogoRaster[]> {
  const rasters: LogoRaster[] = [];
  const declared = declaredLogoUrl(doc.jsonLd, doc.meta, pageUrl);
  const candidates = pickLogoCandidates(images, svgs, pageUrl, declared ? L.logoRasters - 1 : L.logoRasters);
  for (const c of candidates) {
    if (Date.now() >= until) break;
    const [kind, index] = c.ref.split(':') as ['img' | 'svg', string];
    try {
      const handle = (await page.evaluateHandle(
        ([k, i]) => (window as unknown as Record<symbol, Record<string, Element[]>>)[Symbol.for('enrich.elements')]?.[k]?.[Number(i)] ?? null,
        [kind, index] as const,
      )).asElement();
      if (!handle) continue;
      const png = await rasterizeElement(handle, Math.min(2_000, until - Date.now()));
      if (png) rasters.push({ ref: c.ref, ...png });
    } catch { /* element gone or not capturable; skip it */ }
  }
  if (declared && Date.now() < until) {
    try {
      const handle = (await page.evaluateHandle(async ({ src, wait }) => {
        // Last step of the job, so the page may be changed: hide everything else so the raster keeps
        // the logo's own transparency instead of whatever the page paints behind it.
        const style = document.createElement('style');
        style.textContent = 'html, body { background: transparent !important } body > *:not([data-enrich-logo]) { visibility: hidden !important }';
        document.head.appendChild(style);
        const img = document.createElement('img');
        img.setAttribute('data-enrich-logo', '');
        img.style.cssText = 'position:fixed;left:0;top:0;max-width:512px;max-height:512px;z-index:2147483647;background:transparent;margin:0;padding:0;border:0';
        const loaded = new Promise((r) => { img.onload = r; img.onerror = r; });
        img.src = src;
        document.body.appendChild(img);
        await Promise.race([loaded, new Promise((r) => setTimeout(r, wait))]);
        return img.naturalWidth > 0 ? img : null;
      }, { src: declared, wait: Math.max(0, Math.min(2_000, until - Date.now())) })).asElement();
      if (handle) {
        const png = await rasterizeElement(handle, Math.min(2_000, until - Date.now()));
        if (png) rasters.push({ ref: `url:${declared}`, ...png });
        await handle.evaluate((el) => el.remove());
      }
    } catch { /* the declared logo did not load; skip it */ }
  }
  return rasters.slice(0, L.logoRasters);
}
