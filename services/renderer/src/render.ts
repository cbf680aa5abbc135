/**
 * One `render.page` job: a fresh context behind its own egress proxy, one navigation, then the
 * screenshot and the snapshot from the same loaded page, in phases (phases/*.ts), each a
 * `render.*` span. Every step is bounded by the deadline; page, context and proxy are closed
 * whatever happens. Failures become ServiceErrors in one place: the catch in `renderPage`.
 */
import type { Browser, Page } from 'playwright-core';
import type { RenderRequest, RenderResult } from '@enrich/shared/contracts';
import { refusalError, toRenderError } from './errors.ts';
import { capture, storeScreenshot } from './phases/capture.ts';
import type { NetworkLog } from './network-log.ts';
import { collectDocumentOf, collectElementsOf, collectOwnFrames, collectStylesOf } from './phases/collect.ts';
import { checkSettledPage, currentDocument, followSelfNavigation, isDocumentReplaced, navigate, settlePage, type Navigation } from './phases/load.ts';
import { openPage, watchPage, type Held } from './phases/open.ts';
import { beginEarlyLogo, brandPartOf, handOutEarlyVisuals, pagePartOf, snapshotOf, startSiteIconLookup } from './phases/snapshot.ts';
import { markSkipped } from './tracing.ts';
import type { Lease } from './pool.ts';
import { CLEANUP_MS, failureOf, startRun, type JobContext, type RenderDeps, type RenderRun } from './run.ts';

export type { JobContext, RenderDeps } from './run.ts';

export async function renderPage(deps: RenderDeps, req: RenderRequest, job: JobContext): Promise<RenderResult> {
  const run = startRun(deps, req, job);
  let outcome = 'ok';
  try {
    await refuseForbiddenUrl(run);
    run.stage = 'waiting for a free page';
    const lease = await deps.pool.lease(job.signal);
    run.timings.queuedMs = Date.now() - run.started;
    const result = await renderWithLease(run, lease);
    job.log.debug({ url: req.url, finalUrl: result.finalUrl, status: result.status, timings: result.timings }, 'page rendered');
    return result;
  } catch (err) {
    const e = toRenderError(err, failureOf(run));
    outcome = e.code;
    throw e;
  } finally {
    deps.metrics.outcomes.add(1, { outcome });
  }
}

/** Refuse before taking a browser slot: a forbidden URL costs nothing but a DNS lookup. */
async function refuseForbiddenUrl(run: RenderRun): Promise<void> {
  const { url } = run.req;
  const verdict = await run.guard.check(url);
  if (verdict.ok) return;
  throw verdict.kind === 'forbidden'
    ? refusalError(url, { url, kind: 'forbidden', reason: verdict.reason, netError: 'net::ERR_BLOCKED_BY_CLIENT' })
    : refusalError(url, { url, kind: 'unreachable', reason: verdict.reason, netError: 'net::ERR_NAME_NOT_RESOLVED' });
}

/** The phases in their order, on one page; what they open goes into `held`. */
async function renderOnPage(run: RenderRun, browser: Browser, held: Held): Promise<RenderResult> {
  const { req, timings } = run;
  const page = await openPage(run, browser, held);
  const watch = watchPage(run, page);
  let nav = await navigate(run, page, watch.main);
  // A page that replaces its document while it is read (a script's reload or redirect after load)
  // is followed and read again from settling; page calls on the old document throw.
  for (let moves = 1; ; moves++) {
    try {
      await settlePage(run, page, watch.net, nav);
      nav = currentDocument(run, page, watch.main, nav);
      await checkSettledPage(run, page, watch.main, nav);
      const { screenshot, snapshot } = req.snapshot ? await snapshotPhases(run, page, nav, watch.wire) : await screenshotPhases(run, page);
      timings.totalMs = Date.now() - run.started;
      return { requestedUrl: req.url, finalUrl: nav.finalUrl, status: nav.status, screenshot, snapshot, timings };
    } catch (err) {
      if (!isDocumentReplaced(err)) throw err;
      await followSelfNavigation(run, page, moves);
    }
  }
}

type Produced = Pick<RenderResult, 'screenshot' | 'snapshot'>;

/** Without a snapshot (`/screenshot`): the capture and its upload, nothing the analyzers need. */
async function screenshotPhases(run: RenderRun, page: Page): Promise<Produced> {
  const shot = run.req.screenshot;
  markSkipped(['collect', 'logos', 'site_icons', 'thumbnail']);
  const shotStart = Date.now();
  const captured = shot ? await capture(run, page, shot) : undefined;
  const screenshot = captured && shot ? await storeScreenshot(run, captured, shot.fullPage) : null;
  run.timings.screenshotMs = Date.now() - shotStart;
  return { screenshot, snapshot: null };
}

/**
 * With a snapshot (`/enrich` and the analyzers): the page is read (collection), then captured;
 * what needs no page call runs beside the page's own work: the site-icon lookups (GETs through the
 * context's request API) start as soon as the document is read, the page part of the snapshot is
 * handed out (`job.onPagePart`) for the analyzers that need no visuals, the capture's upload and the
 * thumbnail run while the logos are rasterised, and a primary logo drawn as its file is is decoded
 * from that file while the page is captured (beginEarlyLogo). Page calls stay one at a time:
 * collection, the capture and the logo rasters read the same layout (a full-page capture resizes it).
 */
async function snapshotPhases(run: RenderRun, page: Page, nav: Navigation, wire: NetworkLog): Promise<Produced> {
  const shot = run.req.screenshot;
  const collectStart = Date.now();
  const doc = await collectDocumentOf(run, page);
  const icons = run.req.visuals ? startSiteIconLookup(run, page, doc.links, nav.finalUrl) : undefined;
  const found = { doc, elements: await collectElementsOf(run, page) };
  await collectOwnFrames(run, page, nav.finalUrl, found);
  const part = pagePartOf(run, nav, found, wire);
  run.job.onPagePart?.(part);
  // What only the brand analyzer reads is collected after the page part went out, while the company
  // analyzer and the classifier start on it.
  const brand = await brandPartOf(run, found, await collectStylesOf(run, page, wire), wire);
  run.timings.collectMs = Date.now() - collectStart;
  const early = await beginEarlyLogo(run, page, found, nav.finalUrl, wire);
  handOutEarlyVisuals(run, part, brand, wire, early, icons);
  const shotStart = Date.now();
  const captured = shot ? await capture(run, page, shot) : undefined;
  const storing = captured && shot ? storeScreenshot(run, captured, shot.fullPage) : Promise.resolve(null);
  storing.catch(() => undefined); // awaited below, where its failure fails the job
  const snapshot = await snapshotOf(run, page, nav, found, part, brand, wire, captured, icons, early);
  const screenshot = await storing;
  run.timings.screenshotMs = Date.now() - shotStart;
  return { screenshot, snapshot };
}

/** Runs the phases against the lifeline; the slot is given back only once context and proxy are closed. */
async function renderWithLease(run: RenderRun, lease: Lease): Promise<RenderResult> {
  const held: Held = {};
  const lifeline = startLifeline(run, lease.browser, held);
  try {
    const running = renderOnPage(run, lease.browser, held);
    running.catch(() => undefined); // if the lifeline wins, the abandoned work's failure is expected
    return await Promise.race([running, lifeline.failed]);
  } finally {
    lifeline.stop();
    run.deps.spares.jobEnded();
    // The answer never waits for cleanup (closing a context costs 10-45 ms); the slot stays taken
    // until the context is gone, so the pool's bound on contexts holds. Then, if nothing waits,
    // the next job's page is opened ahead (spare.ts).
    void closeHeld(held).then(() => {
      lease.release();
      const idle = run.deps.pool.idleBrowser();
      if (idle) run.deps.spares.refill(idle, run.req.viewport);
    });
  }
}

/**
 * The job races a lifeline that fails at the deadline or when the browser goes away: not every
 * pending Playwright call rejects when the browser dies, and none may outlive the budget.
 */
function startLifeline(run: RenderRun, browser: Browser, held: Held): { failed: Promise<never>; stop(): void } {
  let onDisconnect = (): void => undefined;
  let killAt: NodeJS.Timeout | undefined;
  const failed = new Promise<never>((_, reject) => {
    onDisconnect = () => {
      run.browserGone = true;
      reject(new Error('browser has disconnected'));
    };
    killAt = setTimeout(
      () => {
        run.deadlineHit = true;
        void held.context?.close().catch(() => undefined);
        reject(new Error('deadline reached'));
      },
      Math.max(0, run.job.deadline - Date.now() - CLEANUP_MS),
    );
  });
  failed.catch(() => undefined);
  browser.once('disconnected', onDisconnect);
  if (!browser.isConnected()) onDisconnect();
  return {
    failed,
    stop() {
      clearTimeout(killAt);
      browser.off('disconnected', onDisconnect);
    },
  };
}

async function closeHeld(held: Held): Promise<void> {
  await boundedCleanup(held.context?.close());
  await boundedCleanup(held.proxy?.close());
}

/** Cleanup of a dead browser's context can hang; never let it hold the slot for long. */
function boundedCleanup(p: Promise<unknown> | undefined, ms = 2_000): Promise<void> {
  if (!p) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    p.then(
      () => undefined,
      () => undefined,
    ).finally(() => {
      clearTimeout(t);
      resolve();
    });
  });
}
