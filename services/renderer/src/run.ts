/**
 * One render job's shared facts: what it was built from, its budget and timings, and what the
 * failure mapping needs to know (the stage it is in, whether the deadline or the browser ended it,
 * the main frame's navigation hops). Each phase updates `stage` as it starts.
 */
import type { BlockList } from 'node:net';
import type { Logger } from 'pino';
import type { RenderRequest, RenderResult, Snapshot, SnapshotVisuals } from '@enrich/shared/contracts';
import { createEgressGuard, type EgressGuard } from './egress/guard.ts';
import type { FailureContext } from './errors.ts';
import type { RendererMetrics } from './metrics.ts';
import type { BrowserPool } from './pool.ts';
import type { Resolve } from './ssrf.ts';
import type { SparePages } from './spare.ts';
import type { ScreenshotStore } from './storage/index.ts';

export interface RenderDeps {
  pool: BrowserPool;
  /** The page opened ahead while idle (spare.ts). */
  spares: SparePages;
  store: ScreenshotStore;
  allow: BlockList;
  resolve: Resolve;
  /** Pixel budget of one capture (SCREENSHOT_MAX_PIXELS). */
  screenshotMaxPixels: number;
  metrics: RendererMetrics;
  log: Logger;
}

export interface JobContext {
  deadline: number;
  signal: AbortSignal;
  log: Logger;
  /** Called with the snapshot's page part once the page is read, before the capture (RenderRequest.earlySnapshotTo). */
  onPagePart?: (part: Snapshot) => void;
  /**
   * Called with a page part's visuals when they are ready before the capture ends (the logo raster
   * begun from its file, no thumbnail wanted), so the brand analyzer can start while the page is
   * captured; the finished snapshot carries the same rasters.
   */
  onVisuals?: (part: Snapshot, visuals: SnapshotVisuals) => void;
}

export interface RenderRun {
  deps: RenderDeps;
  req: RenderRequest;
  job: JobContext;
  started: number;
  budgetMs: number;
  /** Kept back after navigation for collecting, capturing and uploading. */
  reserveMs: number;
  /** Settling and scrolling end by then, so the reserve is left. */
  workUntil: number;
  timings: RenderResult['timings'];
  guard: EgressGuard;
  /** What the job is doing, for the message when it fails. */
  stage: string;
  deadlineHit: boolean;
  browserGone: boolean;
  /** Main-frame navigation hops, to tell the refusal that broke navigation from refused subresources. */
  navigationHops: string[];
  /** Jobs come back to back: the next one's spare page is opened once this page has loaded (spare.ts). */
  spareAhead: boolean;
}

/** Kept back at the very end so cleanup and the reply fit in the budget. */
export const CLEANUP_MS = 250;
const RESERVE_MAX_MS = 5_000;

export function startRun(deps: RenderDeps, req: RenderRequest, job: JobContext): RenderRun {
  const started = Date.now();
  const budgetMs = Math.max(0, job.deadline - started);
  const reserveMs = Math.min(RESERVE_MAX_MS, budgetMs * 0.25);
  return {
    deps,
    req,
    job,
    started,
    budgetMs,
    reserveMs,
    workUntil: job.deadline - reserveMs,
    timings: { queuedMs: 0, navigationMs: 0, settleMs: 0, collectMs: 0, screenshotMs: 0, totalMs: 0 },
    guard: createEgressGuard({ resolve: deps.resolve, allow: deps.allow }),
    stage: 'checking the URL',
    deadlineHit: false,
    browserGone: false,
    navigationHops: [req.url],
    spareAhead: deps.spares.jobStarted(),
  };
}

/** Time a page operation may take: what is left of the budget less the cleanup reserve, at least 1 ms. */
export function msLeft(run: RenderRun): number {
  return Math.max(1, run.job.deadline - Date.now() - CLEANUP_MS);
}

/** What the failure mapping (errors.ts) needs; a refusal explains a failure only while navigating. */
export function failureOf(run: RenderRun): FailureContext {
  const refusal = run.stage === 'navigating' ? run.navigationHops.map((u) => run.guard.refusalFor(u)).find(Boolean) : undefined;
  return { url: run.req.url, stage: run.stage, budgetMs: run.budgetMs, deadlineHit: run.deadlineHit, browserGone: run.browserGone, refusal };
}
