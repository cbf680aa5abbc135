/**
 * Phases 2 and 3: one navigation (`domcontentloaded`), then settling (load or network quiet, capped,
 * and scrolling for lazy content when the whole page is wanted), then the hooks on the settled page in
 * their order: consent banners removed, then the check that the page is the site.
 */
import type { Page, Response } from 'playwright-core';
import { TargetNotASiteError, TargetUnreachableError } from '@enrich/shared/errors';
import { EGRESS_HEADER } from '../egress/proxy.ts';
import { refusalError } from '../errors.ts';
import { hideOverlays, LOADER_WAIT_MS } from '../overlays.ts';
import { msLeft, type RenderRun } from '../run.ts';
import { scrollThrough, settle, stopRunawayScript, type NetworkActivity } from '../settle.ts';
import { inSpan } from '../tracing.ts';
import { interruptSessionOf } from './context.ts';
import { checkContentType, checkDownloadedType, checkWall, type MainResponse } from '../walls/index.ts';

/** Settling never waits longer than this, however much budget is left. */
const SETTLE_CAP_MS = 8_000;

export interface Navigation {
  response: Response | null;
  finalUrl: string;
  status: number;
  startedAt: number;
}

/**
 * A parser-blocking script that never answers (a dead third-party host that accepts the connection)
 * holds DOMContentLoaded forever although the document has arrived whole: this long after the
 * document's last byte the page is taken as far as its parser got, instead of failing the job at its
 * deadline. Long enough for a slow script that does answer.
 */
export const STUCK_PARSER_MS = 5_000;

/**
 * DOMContentLoaded, or the parser declared stuck STUCK_PARSER_MS after the whole document arrived
 * (span attribute `dom=stuck`). A document that is still arriving is waited for until the deadline.
 */
async function domReady(page: Page, response: Response | null, timeoutMs: number): Promise<'ready' | 'stuck'> {
  const ready = page.waitForLoadState('domcontentloaded', { timeout: timeoutMs }).then(() => 'ready' as const);
  if (!response) return ready;
  let timer: NodeJS.Timeout | undefined;
  const stuck = response.finished().then(() => new Promise<'stuck'>((resolve) => (timer = setTimeout(() => resolve('stuck'), STUCK_PARSER_MS))));
  try {
    return await Promise.race([ready, stuck]);
  } finally {
    clearTimeout(timer);
    ready.catch(() => undefined); // the race is decided; a later timeout of the loser is nobody's error
  }
}

/** A document that is the egress proxy's answer (a refusal, an unreachable target), not the site's: the refusal or TARGET_UNREACHABLE. */
function failOnEgressAnswer(run: RenderRun, response: Response | null): void {
  const egress = response?.headers()[EGRESS_HEADER];
  if (!response || !egress) return;
  const refusal = run.guard.refusalFor(response.url());
  if (refusal) throw refusalError(run.req.url, refusal);
  throw new TargetUnreachableError(`target unreachable: ${egress} at ${response.url()}`);
}

/**
 * The navigation (span `render.navigate`); an answer of the egress proxy instead of the site fails it.
 * A document the browser takes as a download names its media type when its response said one: the
 * headless shell, which has no PDF viewer, downloads a PDF that the full Chromium would show.
 */
export async function navigate(run: RenderRun, page: Page, main: MainResponse): Promise<Navigation> {
  const { req } = run;
  run.stage = 'navigating';
  const startedAt = Date.now();
  const response = await inSpan(
    'navigate',
    async (span) => {
      const committed = await page.goto(req.url, { waitUntil: 'commit', timeout: msLeft(run) }).catch(async (err: unknown) => {
        if (err instanceof Error && /Download is starting/i.test(err.message)) await checkDownloadedType(main);
        throw err;
      });
      span.setAttribute('dom', await domReady(page, committed, msLeft(run)));
      return committed;
    },
    { 'url.full': req.url.slice(0, 500) },
  );
  run.timings.navigationMs = Date.now() - startedAt;
  failOnEgressAnswer(run, response);
  checkContentType(response); // a PDF or an image is not a site: no need to settle it
  return { response, finalUrl: page.url(), status: response?.status() ?? 200, startedAt };
}

/**
 * A page that replaces its own document after it loaded (a script's redirect or reload, a meta
 * refresh) is followed and read again this many times; one that keeps doing it has no page to read.
 */
export const MAX_SELF_NAVIGATIONS = 3;

/** What a page call throws when the document it worked on was replaced under it. */
export function isDocumentReplaced(err: unknown): boolean {
  return err instanceof Error && /Execution context was destroyed|Cannot find context with specified id/i.test(err.message);
}

/**
 * The document the page shows now, after settling: its URL becomes the final URL (a meta refresh or
 * a script may have moved it) and its response the one the walls judge. A navigation of the page's
 * own that did not load is never read as the site, whether it left Chromium's error page or the
 * egress proxy's answer: a refused target is the refusal (as for a redirect), anything else is
 * unreachable.
 */
export function currentDocument(run: RenderRun, page: Page, main: MainResponse, nav: Navigation): Navigation {
  const url = page.url();
  if (url.startsWith('chrome-error:')) {
    run.stage = 'navigating';
    const refusal = run.navigationHops.map((u) => run.guard.refusalFor(u)).find(Boolean);
    if (refusal) throw refusalError(run.req.url, refusal);
    const target = run.navigationHops.at(-1) ?? run.req.url;
    throw new TargetUnreachableError(`target unreachable: the page moved itself to ${target}, which did not load`, {
      details: { url: run.req.url, movedTo: target },
    });
  }
  // Moved (even before DOMContentLoaded) to a target the egress proxy could not reach: its answer is not the site.
  const response = main.latest(nav.response);
  failOnEgressAnswer(run, response);
  // A fragment the page sets on itself (`#top`) is not a move.
  if (url.split('#')[0] === nav.finalUrl.split('#')[0]) return nav;
  return { ...nav, response, finalUrl: url, status: response?.status() ?? nav.status };
}

/**
 * After a page call found its document replaced (`isDocumentReplaced`): waits for the new document
 * (span `render.navigate`, `navigate.by=page`), or gives up once the page has moved itself more than
 * MAX_SELF_NAVIGATIONS times (TARGET_NOT_A_SITE).
 */
export async function followSelfNavigation(run: RenderRun, page: Page, moves: number): Promise<void> {
  if (moves > MAX_SELF_NAVIGATIONS) {
    throw new TargetNotASiteError(
      `The page kept replacing itself after it loaded (${moves} navigations of its own, the last to ${page.url()}): there is no settled page to read`,
      { details: { url: run.req.url, kind: 'unstable', navigations: moves } },
    );
  }
  run.stage = 'following a navigation of the page';
  await inSpan('navigate', () => page.waitForLoadState('domcontentloaded', { timeout: msLeft(run) }), {
    'url.full': page.url().slice(0, 500),
    'navigate.by': 'page',
  });
}

/** Jobs come back to back and this one is alone: the next job's page opens while this one settles (spare.ts). */
function openSpareAhead(run: RenderRun): void {
  if (!run.spareAhead) return;
  const browser = run.deps.pool.idleBrowser(1);
  if (browser) run.deps.spares.refill(browser, run.req.viewport);
}

/** Waits for the page to settle (span `render.settle`), within the cap and the job's work budget. */
export async function settlePage(run: RenderRun, page: Page, net: NetworkActivity, nav: Navigation): Promise<void> {
  run.stage = 'waiting for the page to settle';
  const startedAt = Date.now();
  await inSpan('settle', async (span) => {
    // Only a full-page capture shows what lies below the viewport; a snapshot reads images from the DOM.
    const viewportOnly = run.req.screenshot?.fullPage !== true;
    const times = await settle(page, net, Math.min(run.workUntil, Date.now() + SETTLE_CAP_MS), () => openSpareAhead(run), viewportOnly);
    span.setAttribute('settle.loaded_ms', times.loadedMs);
    span.setAttribute('settle.after_load_ms', times.afterLoadMs);
    span.setAttribute('settle.rounds', times.rounds);
    span.setAttribute('settle.offscreen_images', times.offscreenImages);
    if (await stopRunawayScript(page, interruptSessionOf(page), run.workUntil)) span.setAttribute('script_stopped', true);
    // Lazy content matters only below the fold: for the snapshot and full-page captures.
    const scroll = run.req.snapshot || run.req.screenshot?.fullPage === true;
    span.setAttribute('scroll', scroll ? 'done' : 'skipped: viewport capture without a snapshot');
    if (scroll) {
      run.stage = 'scrolling for lazy content';
      // A full-page capture needs every viewport drawn; the snapshot only what loads when seen.
      const every = run.req.screenshot?.fullPage === true;
      await inSpan('scroll', (s) => {
        s.setAttribute('scroll.every', every);
        return scrollThrough(page, net, Math.min(run.workUntil, Date.now() + SETTLE_CAP_MS), { every });
      });
    }
  });
  run.timings.settleMs = Date.now() - startedAt;
  run.deps.metrics.pageLoad.record(Date.now() - nav.startedAt);
}

/** Consent banners go first (span `render.overlays`): neither the wall check (span `render.walls`), the snapshot nor the screenshot may see them. */
export async function checkSettledPage(run: RenderRun, page: Page, main: MainResponse, nav: Navigation): Promise<void> {
  run.stage = 'hiding overlays';
  await inSpan('overlays', async (span) => {
    // A loader that the page fades out itself is waited for within the job's work budget.
    const cleared = await hideOverlays(page, Math.max(0, Math.min(LOADER_WAIT_MS, run.workUntil - Date.now())));
    span.setAttribute('layers', cleared.layers);
    if (cleared.loader !== 'none') {
      span.setAttribute('loader', cleared.loader);
      span.setAttribute('loader.wait_ms', cleared.loaderWaitMs);
    }
  });
  run.stage = 'checking that the page is the site';
  await inSpan('walls', () => checkWall(page, main.latest(nav.response), nav.status));
}
