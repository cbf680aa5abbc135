/**
 * What each endpoint asks of the services, over NATS request-reply, within the request budget.
 * /screenshot: render only. /classify, /company, /brand: one render, one analyzer. /enrich: ONE
 * render, the three analyzers in parallel, company and classifier from the page part the renderer
 * hands out before its capture. Every hop gets the remaining budget as its deadline;
 * when the budget runs out the answer is a DeadlineExceededError naming the budget and what was
 * still running (-> 504).
 */
import { context } from '@opentelemetry/api';
import { createInbox, type NatsConnection } from '@nats-io/transport-node';
import { deleteSnapshots, request } from '@enrich/shared/nats';
import {
  ANALYZE_BRAND,
  ANALYZE_CLASSIFY,
  ANALYZE_COMPANY,
  EarlySnapshotSchema,
  type EarlySnapshot,
  RENDER_PAGE,
  type BrandQuery,
  type BrandResponseData,
  type Classification,
  type ClassifyQuery,
  type CompanyData,
  type CompanyQuery,
  type CompanyResponseData,
  type EnrichData,
  type EnrichQuery,
  type Endpoint,
  type RenderRequest,
  type RenderResult,
  type ScreenshotData,
  type ScreenshotQuery,
  type Snapshot,
} from '@enrich/shared/contracts';
import { BadMessageError, BusyError, DeadlineExceededError } from '@enrich/shared/errors';
import type { z } from 'zod';
import { domainOf } from './params.ts';

export interface Budget {
  nc: NatsConnection;
  requestId: string;
  /** Epoch ms at which the request budget runs out. */
  deadline: number;
  budgetMs: number;
  log?: { warn(obj: object, msg: string): void };
}

const DEFAULT_VIEWPORT = { width: 1440, height: 900 };
const BUSY_ATTEMPTS = 3;
const BUSY_RETRY_PAUSE_MS = 50;
/** No retry when less budget than this would be left: a render would not finish in it anyway. */
const BUSY_RETRY_MIN_LEFT_MS = 2000;

/** Calls services and remembers which calls are in flight, for the 504 message. */
class Calls {
  /** Snapshots (and visuals) the renderer stored for this request: deleted once it is answered. */
  readonly snapshotRefs = new Set<string>();
  readonly #b: Budget;
  readonly running = new Map<number, string>();
  #next = 0;
  constructor(b: Budget) {
    this.#b = b;
  }
  async call<E extends Endpoint<z.ZodType, z.ZodType>>(endpoint: E, payload: z.input<E['request']>, what: string): Promise<z.infer<E['reply']>> {
    const id = this.#next++;
    this.running.set(id, `${endpoint.subject} (${what})`);
    try {
      return await this.#withBusyRetry(() => request(this.#b.nc, endpoint, payload, { deadline: this.#b.deadline, requestId: this.#b.requestId }));
    } catch (err) {
      // A hop that ran out of budget answers first (it keeps a margin); name it while it still counts as running.
      if (err instanceof DeadlineExceededError) throw this.expired();
      throw err;
    } finally {
      this.running.delete(id);
    }
  }

  /**
   * A BUSY answer comes from one instance whose queue is full; NATS hands the next request to any
   * instance of the queue group, so with several renderers a retry usually finds a free one. At most
   * BUSY_ATTEMPTS tries, a short pause between them, and only while the budget lasts; then BUSY
   * stands (503, retryable, no credits).
   */
  async #withBusyRetry<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (err) {
        const pause = BUSY_RETRY_PAUSE_MS * attempt;
        if (!(err instanceof BusyError) || attempt >= BUSY_ATTEMPTS || this.#b.deadline - Date.now() < pause + BUSY_RETRY_MIN_LEFT_MS) throw err;
        await new Promise((r) => setTimeout(r, pause));
      }
    }
  }

  expired(): DeadlineExceededError {
    const running = [...this.running.values()];
    return new DeadlineExceededError(
      `The request budget of ${this.#b.budgetMs} ms ran out${running.length > 0 ? ` while ${running.join(', ')} ${running.length > 1 ? 'were' : 'was'} still running` : ''}`,
    );
  }
}

/** Runs `work` within the budget; expiry (here or reported by a hop) becomes one clear 504 error. */
async function withinBudget<T>(b: Budget, work: (calls: Calls) => Promise<T>): Promise<T> {
  const calls = new Calls(b);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(calls.expired()), Math.max(0, b.deadline - Date.now()));
  });
  try {
    return await Promise.race([work(calls), timeout]);
  } finally {
    clearTimeout(timer);
    // The stored snapshots have been read (or the answer is given up): best effort, the bucket TTL is the net.
    if (calls.snapshotRefs.size > 0) void deleteSnapshots(b.nc, [...calls.snapshotRefs]).catch(() => undefined);
  }
}

function renderRequest(b: Budget, url: string, over: Partial<RenderRequest>): RenderRequest {
  return {
    requestId: b.requestId,
    url,
    viewport: DEFAULT_VIEWPORT,
    screenshot: null,
    snapshot: true,
    snapshotByRef: true,
    scripts: false,
    visuals: false,
    ...over,
  };
}

/**
 * What each analyzer reads of a snapshot, so a render collects no more (RenderRequest `elements`,
 * `styles`): the classifier reads the document's text and data alone; the company analyzer also its
 * links and images, never its styles; the brand analyzer everything (the renderer's defaults).
 */
const TEXT_ONLY = { elements: false, styles: false } as const satisfies Partial<RenderRequest>;
const NO_STYLES = { styles: false } as const satisfies Partial<RenderRequest>;

/** A render's snapshot as the analyzers take it: by reference (remembered for deletion), else inline. */
type SnapshotPart = { snapshot: Snapshot } | { snapshotRef: string };

function snapshotOf(calls: Calls, r: RenderResult): SnapshotPart {
  if (r.snapshotRef) {
    calls.snapshotRefs.add(r.snapshotRef);
    return { snapshotRef: r.snapshotRef };
  }
  if (!r.snapshot) throw new BadMessageError('render.page answered without the snapshot that was asked for');
  return { snapshot: r.snapshot };
}

function screenshotOf(r: RenderResult): NonNullable<RenderResult['screenshot']> {
  if (!r.screenshot) throw new BadMessageError('render.page answered without the screenshot that was asked for');
  return r.screenshot;
}

export async function runScreenshot(b: Budget, url: string, q: ScreenshotQuery): Promise<ScreenshotData> {
  return withinBudget(b, async (calls) => {
    const r = await calls.call(
      RENDER_PAGE,
      renderRequest(b, url, {
        viewport: { width: q.width, height: q.height },
        screenshot: { format: q.format, fullPage: q.full_page },
        snapshot: false,
      }),
      `capturing ${url}`,
    );
    const shot = screenshotOf(r);
    return {
      url: r.finalUrl,
      screenshot_url: shot.url,
      viewport: { width: q.width, height: q.height },
      format: shot.format,
      full_page: q.full_page,
      captured_at: shot.capturedAt,
      screenshot_clipped: shot.clipped ?? false,
    };
  });
}

export async function runClassify(b: Budget, url: string, _q: ClassifyQuery): Promise<Classification> {
  return withinBudget(b, async (calls) => {
    const r = await calls.call(RENDER_PAGE, renderRequest(b, url, TEXT_ONLY), `loading ${url}`);
    return calls.call(ANALYZE_CLASSIFY, { requestId: b.requestId, ...snapshotOf(calls, r) }, 'classifying');
  });
}

/** analyze.company, then (follow_links) the pages it suggests, rendered in parallel, and analyze.company again. */
async function companyOf(b: Budget, calls: Calls, main: SnapshotPart, followLinks: boolean, viewport: RenderRequest['viewport']): Promise<CompanyData> {
  const first = await calls.call(ANALYZE_COMPANY, { requestId: b.requestId, ...main, extraSnapshots: [] }, 'extracting company data');
  if (!followLinks || first.followUp.length === 0) return first.data;
  const followed = await Promise.allSettled(
    first.followUp.map((link) => calls.call(RENDER_PAGE, renderRequest(b, link, { viewport, ...NO_STYLES }), `loading linked page ${link}`)),
  );
  const extraSnapshots: Snapshot[] = [];
  const extraSnapshotRefs: string[] = [];
  for (const [i, outcome] of followed.entries()) {
    if (outcome.status === 'fulfilled' && (outcome.value.snapshot || outcome.value.snapshotRef)) {
      const part = snapshotOf(calls, outcome.value);
      if ('snapshotRef' in part) extraSnapshotRefs.push(part.snapshotRef);
      else extraSnapshots.push(part.snapshot);
    }
    // A linked page that fails to load only costs its extra evidence, not the whole answer.
    else if (outcome.status === 'rejected') b.log?.warn({ err: outcome.reason, link: first.followUp[i] }, 'followed company page failed to render');
  }
  if (extraSnapshots.length + extraSnapshotRefs.length === 0) return first.data;
  const second = await calls.call(
    ANALYZE_COMPANY,
    { requestId: b.requestId, ...main, extraSnapshots, extraSnapshotRefs },
    'extracting company data from linked pages',
  );
  return second.data;
}

export async function runCompany(b: Budget, url: string, q: CompanyQuery): Promise<CompanyResponseData> {
  return withinBudget(b, async (calls) => {
    const viewport = { width: q.width, height: q.height };
    const r = await calls.call(RENDER_PAGE, renderRequest(b, url, { viewport, ...NO_STYLES }), `loading ${url}`);
    const data = await companyOf(b, calls, snapshotOf(calls, r), q.follow_links, viewport);
    return { domain: domainOf(r.finalUrl), url: r.finalUrl, ...data };
  });
}

function brandRender(b: Budget, url: string, q: BrandQuery): RenderRequest {
  return renderRequest(b, url, {
    viewport: { width: q.width, height: q.height },
    screenshot: { format: q.format, fullPage: q.full_page },
    snapshot: true,
    scripts: q.javascript,
    visuals: true,
    // Only screenshotColors reads the thumbnail.
    thumbnail: q.screenshotColors !== undefined,
  });
}

function brandOptions(q: BrandQuery): { screenshotColors: number | null; css: boolean; html: boolean; javascript: boolean } {
  return { screenshotColors: q.screenshotColors ?? null, css: q.css, html: q.html, javascript: q.javascript };
}

/**
 * /brand: one render, then the brand analyzer. Not started from visuals handed out during the
 * capture as /enrich does: alone, that needs the page part stored apart before the capture, and the
 * analysis then competes with the capture for the cores; trace-breakdown on the news page
 * (2026-11-27, 9 requests, alternating) gave 288 / 292 ms with it against 282 / 275 ms without.
 */
export async function runBrand(b: Budget, url: string, q: BrandQuery): Promise<BrandResponseData> {
  return withinBudget(b, async (calls) => {
    const r = await calls.call(RENDER_PAGE, brandRender(b, url, q), `loading ${url}`);
    const brand = await calls.call(
      ANALYZE_BRAND,
      { requestId: b.requestId, ...snapshotOf(calls, r), screenshotUrl: r.screenshot?.url ?? '', options: brandOptions(q) },
      'extracting brand',
    );
    return { domain: domainOf(r.finalUrl), url: r.finalUrl, ...brand };
  });
}

/**
 * The brand analyzer, asked as soon as the visuals are handed out (the renderer publishes
 * `{ snapshotRef, visualsRef }` to the early inbox when they are ready before the capture ends: the
 * logo raster read from its file, no thumbnail asked for), with an empty `screenshotUrl`: the analyzer
 * only passes it through, so the answer takes the capture's URL from the reply. A reply that names
 * another page part or other visuals (the page replaced its document) asks again from the reply.
 */
function brandFromVisuals(b: Budget, calls: Calls, q: BrandQuery) {
  const ask = (snapshot: SnapshotPart, visuals: { visualsRef?: string }, screenshotUrl: string) =>
    calls.call(ANALYZE_BRAND, { requestId: b.requestId, ...snapshot, ...visuals, screenshotUrl, options: brandOptions(q) }, 'extracting brand');
  let started: { ref: string; visualsRef: string; answer: ReturnType<typeof ask> } | undefined;
  let answered = false;
  return {
    offer(m: EarlySnapshot): void {
      calls.snapshotRefs.add(m.snapshotRef);
      if (m.visualsRef) calls.snapshotRefs.add(m.visualsRef);
      if (answered || !m.visualsRef || started) return; // after the reply, the reply says what to start from
      started = { ref: m.snapshotRef, visualsRef: m.visualsRef, answer: ask({ snapshotRef: m.snapshotRef }, { visualsRef: m.visualsRef }, '') };
      started.answer.catch(() => undefined); // awaited in answer() when the reply names the same page part and visuals
    },
    /** The render answered: visuals handed out from now on are not started from. */
    answered(): void {
      answered = true;
    },
    answer(r: RenderResult): ReturnType<typeof ask> {
      const snapshot = snapshotOf(calls, r);
      if (r.visualsRef) calls.snapshotRefs.add(r.visualsRef);
      const screenshotUrl = r.screenshot?.url ?? '';
      if ('snapshotRef' in snapshot && started?.ref === snapshot.snapshotRef && started.visualsRef === r.visualsRef) {
        return started.answer.then((d) => ({ ...d, images: { ...d.images, screenshot_url: screenshotUrl } }));
      }
      return ask(snapshot, r.visualsRef ? { visualsRef: r.visualsRef } : {}, screenshotUrl);
    },
  };
}

/**
 * /enrich: one render, then the three analyzers. The renderer hands out the page part of the snapshot
 * (RenderRequest.earlySnapshotTo) once the page is read, so company and classifier run while the
 * page is captured and its logos rasterised; brand, which needs those visuals, starts when the
 * renderer hands them out too (ready before the capture ended: the logo read from its file), else
 * from the reply. Without the early part (or when the document was replaced after it, so the reply
 * names another page part or other visuals) the analyzers start from the reply.
 */
export async function runEnrich(b: Budget, url: string, q: EnrichQuery): Promise<EnrichData> {
  return withinBudget(b, async (calls) => {
    const early = earlyHandOuts(b.nc);
    try {
      const textual = (part: SnapshotPart) =>
        Promise.all([
          companyOf(b, calls, part, q.follow_links, { width: q.width, height: q.height }),
          calls.call(ANALYZE_CLASSIFY, { requestId: b.requestId, ...part }, 'classifying'),
        ]);
      const brand = brandFromVisuals(b, calls, q);
      let started: { ref: string; answers: ReturnType<typeof textual> } | undefined;
      let answered = false;
      early.onMessage((m) => {
        brand.offer(m);
        if (answered || started) return; // the reply came first: it names the page part to start from
        started = { ref: m.snapshotRef, answers: textual({ snapshotRef: m.snapshotRef }) };
        started.answers.catch(() => undefined); // awaited below unless the render fails or replaced the page part
      });
      const r = await calls.call(RENDER_PAGE, { ...brandRender(b, url, q), earlySnapshotTo: early.inbox }, `loading ${url}`);
      answered = true;
      brand.answered();
      const snapshot = snapshotOf(calls, r);
      const sameAsEarly = 'snapshotRef' in snapshot && started?.ref === snapshot.snapshotRef;
      const [[company, classification], brandData] = await Promise.all([sameAsEarly && started ? started.answers : textual(snapshot), brand.answer(r)]);
      return { domain: domainOf(r.finalUrl), url: r.finalUrl, ...brandData, company, classification };
    } finally {
      early.close();
    }
  });
}

/** The inbox the renderer publishes the early page part (and then its visuals) to; each message is handed to `onMessage`. */
function earlyHandOuts(nc: NatsConnection): { inbox: string; onMessage(handle: (m: EarlySnapshot) => void): void; close(): void } {
  const inbox = createInbox();
  let handle: (m: EarlySnapshot) => void = () => undefined;
  const sub = nc.subscribe(inbox, {
    max: 2,
    callback: (err, msg) => {
      if (err) return;
      const parsed = EarlySnapshotSchema.safeParse(safeJson(msg.data));
      if (parsed.success) handle(parsed.data);
    },
  });
  return {
    inbox,
    onMessage(h) {
      // NATS calls back outside the request's trace context: the analyzers' spans belong to the request.
      const ctx = context.active();
      handle = (m) => context.with(ctx, () => h(m));
    },
    close() {
      sub.unsubscribe();
    },
  };
}

function safeJson(data: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(data).toString('utf8'));
  } catch {
    return null;
  }
}
