/**
 * Phase 4: what the snapshot is made of, read in the page (spans `render.collect.document`,
 * `render.collect.elements`, `render.collect.styles`). Every SNAPSHOT_LIMITS bound is enforced there.
 */
import type { Frame, Page } from 'playwright-core';
import { SNAPSHOT_LIMITS as L, type Anchor } from '@enrich/shared/contracts';
import { isSameSite, registrableDomain } from '@enrich/shared/page';
import { collectDocument, DOCUMENT_PARTS } from '../collect/document.ts';
import { collectElements, ELEMENT_PARTS } from '../collect/elements.ts';
import { collectFrameContent } from '../collect/frames.ts';
import { runInPage } from '../collect/run-in-page.ts';
import { collectStyles, STYLE_PARTS } from '../collect/styles.ts';
import type { NetworkLog } from '../network-log.ts';
import type { RenderRun } from '../run.ts';
import { inSpan, markSkipped } from '../tracing.ts';

/** What the page part of the snapshot is made of. */
export interface Collected {
  doc: ReturnType<typeof collectDocument>;
  elements: ReturnType<typeof collectElements>;
}

/** The computed colours, fonts and root variables: the brand analyzer's alone, collected after the page part. */
export type CollectedStyles = ReturnType<typeof collectStyles>;

/** The document part (span `render.collect.document`): what the site-icon lookups need comes from here. */
export async function collectDocumentOf(run: RenderRun, page: Page): Promise<Collected['doc']> {
  run.stage = 'collecting the document';
  return inSpan('collect.document', () =>
    runInPage(
      page,
      collectDocument,
      {
        htmlChars: L.htmlChars,
        metaTags: L.metaTags,
        linkTags: L.linkTags,
        jsonLdBlocks: L.jsonLdBlocks,
        jsonLdChars: L.jsonLdChars,
        urlChars: L.urlChars,
        visibleTextChars: L.visibleTextChars,
        regionTextChars: L.regionTextChars,
        headings: L.headings,
        navLabels: L.navLabels,
        stylesheets: L.stylesheets,
        scripts: L.scripts,
        scriptChars: L.scriptChars,
        stylesheetChars: L.stylesheetChars,
        withScripts: run.req.scripts,
      },
      DOCUMENT_PARTS,
    ),
  );
}

/**
 * The elements (span `render.collect.elements`) when the request wants them (RenderRequest
 * `elements`: `/classify` does not); else empty lists.
 */
export async function collectElementsOf(run: RenderRun, page: Page): Promise<Collected['elements']> {
  if (run.req.elements === false) {
    markSkipped(['elements']);
    return NO_ELEMENTS();
  }
  run.stage = 'collecting elements';
  return inSpan('collect.elements', () =>
    runInPage(
      page,
      collectElements,
      { anchors: L.anchors, anchorTextChars: L.anchorTextChars, images: L.images, svgs: L.svgs, svgMarkupChars: L.svgMarkupChars, urlChars: L.urlChars },
      ELEMENT_PARTS,
    ),
  );
}

/**
 * The computed styles (span `render.collect.styles`) when the request wants them (RenderRequest
 * `styles`: only the brand analyzer reads them); else empty. Collected after the page part is handed
 * out, which does not carry them (SnapshotVisualsSchema).
 */
export async function collectStylesOf(run: RenderRun, page: Page, wire: NetworkLog): Promise<CollectedStyles> {
  if (run.req.styles === false) {
    markSkipped(['styles']);
    return NO_STYLES();
  }
  run.stage = 'collecting styles';
  return inSpan('collect.styles', async () => {
    const sheetTexts = await wire.texts(Math.min(run.workUntil, Date.now() + 2_000));
    const extraVariableNames = [...new Set([...sheetTexts.values()].flatMap((t) => [...t.matchAll(/(--[\w-]+)\s*:/g)].map((m) => m[1]!)))].slice(0, 2000);
    return runInPage(page, collectStyles, { colorSamples: L.colorSamples, fontSamples: L.fontSamples, maxElements: 15_000, extraVariableNames }, STYLE_PARTS);
  });
}

const NO_ELEMENTS = (): Collected['elements'] => ({ anchors: [], images: [], svgs: [], truncated: [] });
const NO_STYLES = (): CollectedStyles => ({ colors: [], fonts: [], rootVariables: {}, truncated: [] });

/** Frames read at most, and how long each may take: a frameset has a few; a stuck frame is skipped. */
const MAX_FRAMES = 8;
const FRAME_READ_MS = 1_500;

/**
 * The page's own frames (span `render.collect.frames`): the frames of a frameset and same-site
 * iframes, with a frame a script wrote (about:blank, srcdoc) counted as its parent's. Their text
 * follows the page's visible text and their links follow the page's, within the snapshot's bounds;
 * a link's box is the frame's own, so it is dropped. Other sites' frames (ads, maps, booking and
 * review widgets) are not the page's: their emails and names are someone else's. A page without
 * such frames costs no page call.
 */
export async function collectOwnFrames(run: RenderRun, page: Page, finalUrl: string, found: Collected): Promise<number> {
  const site = registrableDomain(finalUrl);
  const own = (f: Frame): boolean => {
    for (let x: Frame | null = f; x; x = x.parentFrame()) {
      const url = x.url();
      if (/^https?:/i.test(url)) return isSameSite(url, site);
      if (!/^about:(blank|srcdoc)$/i.test(url)) return false;
    }
    return false;
  };
  const frames = page
    .frames()
    .filter((f) => f !== page.mainFrame() && !f.isDetached() && own(f))
    .slice(0, MAX_FRAMES);
  if (!frames.length) return 0;
  run.stage = 'collecting the frames';
  return inSpan('collect.frames', async (span) => {
    const limits = {
      anchors: L.anchors,
      anchorTextChars: L.anchorTextChars,
      images: 0,
      svgs: 0,
      svgMarkupChars: 0,
      urlChars: L.urlChars,
      visibleTextChars: L.visibleTextChars,
    };
    const read = await Promise.all(
      frames.map(async (f) => {
        try {
          // A frame hidden from view (a tracking or preloading iframe) shows nothing.
          if (!(await (await f.frameElement()).isVisible())) return null;
          // A read that outlasts FRAME_READ_MS is dropped; its late failure too.
          const content = runInPage(f, collectFrameContent, limits, ELEMENT_PARTS).catch(() => null);
          return await Promise.race([content, new Promise<null>((resolve) => setTimeout(() => resolve(null), FRAME_READ_MS).unref())]);
        } catch {
          return null; // detached or navigated meanwhile
        }
      }),
    );
    const { doc, elements } = found;
    let added = 0;
    for (const content of read) {
      if (!content) continue;
      added++;
      if (content.text) {
        const joined = doc.text.visible ? `${doc.text.visible}\n${content.text}` : content.text;
        if (joined.length > L.visibleTextChars && !doc.truncated.includes('text.visible')) doc.truncated.push('text.visible');
        doc.text.visible = joined.slice(0, L.visibleTextChars);
      }
      if (run.req.elements === false) continue;
      const room = L.anchors - elements.anchors.length;
      if (content.anchors.length > room && !elements.truncated.includes('anchors')) elements.truncated.push('anchors');
      elements.anchors.push(...content.anchors.slice(0, Math.max(0, room)).map((a): Anchor => ({ ...(a as Anchor), box: null })));
    }
    span.setAttribute('frames', frames.length);
    span.setAttribute('frames.read', added);
    return added;
  });
}
