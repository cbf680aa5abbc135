/**
 * Phase 6, when a snapshot is wanted: its page part assembled from what was collected and what the
 * wire saw (handed out before the capture when the request asks), then the visuals (span
 * `render.visuals`: the thumbnail beside the logo rasters; the site-icon lookups were started after
 * the document was read) laid over it.
 */
import type { Page } from 'playwright-core';
import {
  SNAPSHOT_LIMITS as L,
  type LinkTag,
  type LogoRaster,
  type PngImage,
  type SiteIconLookup,
  type Snapshot,
  type SourceText,
} from '@enrich/shared/contracts';
import type { LogoPage } from '@enrich/shared/logos';
import { beginLogoFromFile, lookUpSiteIcons, rasterizeLogos, type EarlyLogo } from '../logos.ts';
import type { NetworkLog } from '../network-log.ts';
import { CLEANUP_MS, msLeft, type RenderRun } from '../run.ts';
import { thumbnailOf, type Capture } from '../screenshot.ts';
import { inSpan, markSkipped } from '../tracing.ts';
import type { Collected, CollectedStyles } from './collect.ts';
import type { Navigation } from './load.ts';

interface Visuals {
  thumbnail: PngImage | null;
  logoRasters: LogoRaster[];
  siteIcons?: SiteIconLookup;
}

/** Until when the visuals may work: half the reserve past the work budget, never into the cleanup reserve. */
function visualsUntil(run: RenderRun): number {
  return Math.min(run.workUntil + run.reserveMs / 2, run.job.deadline - CLEANUP_MS);
}

/**
 * The manifest and `/favicon.ico` lookups (span `render.site_icons`), started as soon as the document
 * is read: they are GETs through the context's request API, not page calls, so they run while the
 * elements and styles are collected and the page is captured.
 */
export function startSiteIconLookup(run: RenderRun, page: Page, links: readonly LinkTag[], finalUrl: string): Promise<SiteIconLookup> {
  const lookup = inSpan('site_icons', () => lookUpSiteIcons(page, links, finalUrl, visualsUntil(run)));
  lookup.catch(() => undefined); // awaited in renderVisuals
  return lookup;
}

/** The thumbnail (span `render.thumbnail`) comes from the capture when it is PNG or JPEG, else from a screenshot of its own. */
async function thumbnailFor(run: RenderRun, page: Page, captured: Capture | undefined): Promise<PngImage> {
  return inSpan(
    'thumbnail',
    async () => {
      const base = captured && captured.format !== 'webp' ? captured.body : await page.screenshot({ type: 'png', timeout: msLeft(run) });
      return thumbnailOf(base, run.req.viewport);
    },
    { from_capture: Boolean(captured && captured.format !== 'webp') },
  );
}

/** What the shared logo ranking reads, from what was collected (site icons: as far as they are known). */
function logoFacts(found: Collected, finalUrl: string, wire: NetworkLog, siteIcons: SiteIconLookup | undefined): LogoPage {
  const { doc } = found;
  return {
    finalUrl: finalUrl.slice(0, L.urlChars),
    title: doc.title,
    meta: doc.meta,
    links: doc.links,
    jsonLd: doc.jsonLd,
    html: doc.html,
    images: found.elements.images,
    svgs: found.elements.svgs,
    viewport: doc.viewport,
    resources: wire.resources().list,
    ...(siteIcons ? { siteIcons } : {}),
  };
}

/**
 * Begins the primary logo's raster from its file before the capture, when the ranking can tell it
 * without the site icons and the logo is an `<img>` shown as its file is: one page call here, the
 * file's decode in this process while the browser captures. Undefined when there is nothing to begin.
 */
export async function beginEarlyLogo(run: RenderRun, page: Page, found: Collected, finalUrl: string, wire: NetworkLog): Promise<EarlyLogo | undefined> {
  if (!run.req.visuals) return undefined;
  return (await beginLogoFromFile(page, logoFacts(found, finalUrl, wire, undefined), visualsUntil(run), wire)) ?? undefined;
}

/**
 * Hands the visuals out before the capture ends (JobContext.onVisuals) when they need no page call:
 * the logo raster begun from its file, decoded while the page is captured, and the site icons, with
 * no thumbnail asked for. The brand analyzer then starts while the capture runs; the finished
 * snapshot (`snapshotOf`) carries the same raster and icons, so the reply names these visuals again.
 */
export function handOutEarlyVisuals(
  run: RenderRun,
  part: Snapshot,
  brand: BrandPart,
  wire: NetworkLog,
  early: EarlyLogo | undefined,
  icons: Promise<SiteIconLookup> | undefined,
): void {
  const onVisuals = run.job.onVisuals;
  if (!onVisuals || !early || !icons || !run.req.visuals || run.req.thumbnail !== false) return;
  void Promise.all([early.raster, icons]).then(
    ([raster, siteIcons]) => {
      if (!raster) return; // the raster is made after the capture, from the page
      const { styles, stylesheets, scripts } = brand;
      onVisuals(part, {
        styles,
        stylesheets,
        scripts,
        thumbnail: null,
        logoRasters: [{ ref: early.ref, ...raster }],
        siteIcons,
        ...finalTruncated(part, brand, wire),
      });
    },
    () => undefined, // the visuals then fail where they are awaited, in snapshotOf
  );
}

/**
 * Span `render.visuals`: the thumbnail (node-side image work on the capture) runs beside the logo
 * rasters (span `render.logos`, page calls), which wait for the site-icon lookups started earlier.
 */
async function renderVisuals(
  run: RenderRun,
  page: Page,
  found: Collected,
  finalUrl: string,
  captured: Capture | undefined,
  wire: NetworkLog,
  icons: Promise<SiteIconLookup> | undefined,
  early: EarlyLogo | undefined,
): Promise<Visuals> {
  if (!run.req.visuals) {
    markSkipped(['logos', 'site_icons', 'thumbnail']);
    return { thumbnail: null, logoRasters: [] };
  }
  run.stage = 'rendering visuals';
  const wantsThumbnail = run.req.thumbnail !== false;
  if (!wantsThumbnail) markSkipped(['thumbnail']);
  return inSpan('visuals', async () => {
    const thumbnail = wantsThumbnail ? thumbnailFor(run, page, captured) : Promise.resolve(null);
    thumbnail.catch(() => undefined); // awaited below
    const until = visualsUntil(run);
    const siteIcons = await (icons ?? startSiteIconLookup(run, page, found.doc.links, finalUrl));
    // Logos: the shared ranking (the brand analyzer's own) decides which are rasterised, so the
    // colours come from the logo the brand analyzer reports as primary.
    const logoRasters = await inSpan('logos', async (span) => {
      const begun = await early?.raster;
      if (early && begun) {
        span.setAttributes({ 'logos.from': 'file', 'logos.begun_before_capture': true });
        return [{ ref: early.ref, ...begun }];
      }
      const { rasters, from } = await rasterizeLogos(page, logoFacts(found, finalUrl, wire, siteIcons), until, wire);
      if (from) span.setAttribute('logos.from', from);
      return rasters;
    });
    return { thumbnail: await thumbnail, logoRasters, siteIcons };
  });
}

/**
 * The snapshot as far as reading the page makes it, before the styles and the capture: everything
 * but what only the brand analyzer reads (styles, stylesheet and script texts: `brandPartOf`) and
 * the visuals (thumbnail, logo rasters, site icons), with the network log as it stands. The analyzers
 * that need neither (company, classifier) can start from it (RenderRequest.earlySnapshotTo).
 */
export function pagePartOf(run: RenderRun, nav: Navigation, found: Collected, wire: NetworkLog): Snapshot {
  const { doc, elements } = found;
  run.stage = 'assembling the snapshot';
  const truncated = new Set([...doc.truncated, ...elements.truncated]);
  const resources = wire.resources();
  if (resources.truncated) truncated.add('resources');
  return {
    requestedUrl: run.req.url.slice(0, L.urlChars),
    finalUrl: nav.finalUrl.slice(0, L.urlChars),
    status: nav.status,
    title: doc.title,
    lang: doc.lang,
    html: doc.html,
    meta: doc.meta,
    links: doc.links,
    jsonLd: doc.jsonLd,
    stylesheets: [],
    scripts: [],
    anchors: elements.anchors,
    images: elements.images,
    svgs: elements.svgs,
    text: doc.text,
    styles: { colors: [], fonts: [], rootVariables: {} },
    resources: resources.list,
    thumbnail: null,
    logoRasters: [],
    viewport: doc.viewport,
    documentSize: doc.documentSize,
    truncated: [...truncated],
  };
}

/** What only the brand analyzer reads of a page: laid over the page part with the visuals (SnapshotVisualsSchema). */
export interface BrandPart {
  styles: Snapshot['styles'];
  stylesheets: SourceText[];
  scripts: SourceText[];
  /** The parts of these that hit a limit. */
  truncated: string[];
}

/**
 * The brand analyzer's part: the computed styles, and the stylesheet texts (when the request wants
 * styles) and script texts (when it wants scripts) from the page and the network log, waiting up to
 * 1 s for bodies still on the wire.
 */
export async function brandPartOf(run: RenderRun, found: Collected, styles: CollectedStyles, wire: NetworkLog): Promise<BrandPart> {
  const wantsStyles = run.req.styles !== false;
  const truncated = new Set(styles.truncated);
  const texts = wantsStyles || run.req.scripts ? await wire.texts(Math.min(run.job.deadline - CLEANUP_MS, Date.now() + 1_000)) : new Map<string, string>();
  const { doc } = found;
  const stylesheets = wantsStyles
    ? assembleSources(
        doc.styleSources,
        texts,
        wire.textOrder(),
        /\.css(\?|$)/i,
        L.stylesheets,
        L.stylesheetChars,
        L.stylesheetsTotalChars,
        'stylesheets',
        truncated,
      )
    : [];
  const scripts = run.req.scripts
    ? assembleSources(doc.scriptSources, texts, [], null, L.scripts, L.scriptChars, L.scriptsTotalChars, 'scripts', truncated)
    : [];
  return {
    styles: { colors: styles.colors as Snapshot['styles']['colors'], fonts: styles.fonts as Snapshot['styles']['fonts'], rootVariables: styles.rootVariables },
    stylesheets,
    scripts,
    truncated: [...truncated],
  };
}

/** The cut list of the whole snapshot: the page part's and the brand part's, with the network log's as it stands now. */
function finalTruncated(part: Snapshot, brand: BrandPart, wire: NetworkLog): { resources: Snapshot['resources']; truncated: string[] } {
  const resources = wire.resources();
  const truncated = [...new Set([...part.truncated.filter((name) => name !== 'resources'), ...brand.truncated])];
  if (resources.truncated) truncated.push('resources');
  return { resources: resources.list, truncated };
}

/** The whole snapshot: the page part with the brand part and the visuals, and the network log as it stands at the end. */
export async function snapshotOf(
  run: RenderRun,
  page: Page,
  nav: Navigation,
  found: Collected,
  part: Snapshot,
  brand: BrandPart,
  wire: NetworkLog,
  captured: Capture | undefined,
  icons?: Promise<SiteIconLookup>,
  early?: EarlyLogo,
): Promise<Snapshot> {
  const { thumbnail, logoRasters, siteIcons } = await renderVisuals(run, page, found, nav.finalUrl, captured, wire, icons, early);
  const { styles, stylesheets, scripts } = brand;
  return { ...part, styles, stylesheets, scripts, ...finalTruncated(part, brand, wire), thumbnail, logoRasters, ...(siteIcons ? { siteIcons } : {}) };
}

/** External sources get their text from the network log; sheets only seen on the wire (@import) follow. */
function assembleSources(
  refs: Array<{ url: string | null; text: string | null }>,
  texts: Map<string, string>,
  wireOrder: string[],
  wireOnly: RegExp | null,
  maxItems: number,
  maxChars: number,
  maxTotal: number,
  name: string,
  truncated: Set<string>,
): SourceText[] {
  const out: SourceText[] = [];
  const seen = new Set<string>();
  let total = 0;
  const push = (url: string | null, text: string | undefined | null): void => {
    if (text == null) return;
    if (out.length >= maxItems) return void truncated.add(name);
    let t = text;
    if (t.length >= maxChars) truncated.add(name);
    t = t.slice(0, Math.min(maxChars, maxTotal - total));
    if (t.length < text.length) truncated.add(name);
    if (!t && text) return;
    total += t.length;
    out.push({ url, text: t });
  };
  for (const ref of refs) {
    if (ref.url) {
      seen.add(ref.url);
      push(ref.url, texts.get(ref.url));
    } else push(null, ref.text);
  }
  if (wireOnly) for (const url of wireOrder) if (!seen.has(url) && texts.has(url)) push(url, texts.get(url));
  return out;
}
