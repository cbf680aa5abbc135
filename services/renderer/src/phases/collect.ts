/**
 * Phase 4: what the snapshot is made of, read in the page (spans `render.collect.document`,
 * `render.collect.elements`, `render.collect.styles`). Every SNAPSHOT_LIMITS bound is enforced there.
 */
import type { Page } from 'playwright-core';
import { SNAPSHOT_LIMITS as L } from '@enrich/shared/contracts';
import { collectDocument, DOCUMENT_PARTS } from '../collect/document.ts';
import { collectElements, ELEMENT_PARTS } from '../collect/elements.ts';
import { runInPage } from '../collect/run-in-page.ts';
import { collectStyles, STYLE_PARTS } from '../collect/styles.ts';
import type { NetworkLog } from '../network-log.ts';
import type { RenderRun } from '../run.ts';
import { inSpan } from '../tracing.ts';

export interface Collected {
  doc: ReturnType<typeof collectDocument>;
  elements: ReturnType<typeof collectElements>;
  styles: ReturnType<typeof collectStyles>;
}

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

/** Elements and styles (spans `render.collect.elements`, `render.collect.styles`). */
export async function collectElementsAndStyles(run: RenderRun, page: Page, wire: NetworkLog): Promise<Omit<Collected, 'doc'>> {
  run.stage = 'collecting elements and styles';
  const elements = await inSpan('collect.elements', () =>
    runInPage(
      page,
      collectElements,
      { anchors: L.anchors, anchorTextChars: L.anchorTextChars, images: L.images, svgs: L.svgs, svgMarkupChars: L.svgMarkupChars, urlChars: L.urlChars },
      ELEMENT_PARTS,
    ),
  );
  const styles = await inSpan('collect.styles', async () => {
    const sheetTexts = await wire.texts(Math.min(run.workUntil, Date.now() + 2_000));
    const extraVariableNames = [...new Set([...sheetTexts.values()].flatMap((t) => [...t.matchAll(/(--[\w-]+)\s*:/g)].map((m) => m[1]!)))].slice(0, 2000);
    return runInPage(page, collectStyles, { colorSamples: L.colorSamples, fontSamples: L.fontSamples, maxElements: 15_000, extraVariableNames }, STYLE_PARTS);
  });
  return { elements, styles };
}
