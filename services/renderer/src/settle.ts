/**
 * Waiting for a page to be "done" without trusting it to ever go idle: after DOMContentLoaded we
 * wait for the load event or a quiet network, whichever comes first, never beyond a cap; then
 * (for full captures and snapshots) scroll through the page so lazy content loads.
 */
import type { CDPSession, Page, Request } from 'playwright-core';

/** Before `load`: quiet this long counts as done (Playwright's own "networkidle" window). */
const QUIET_MS = 500;
/**
 * After `load`: the network counts as quiet once nothing is in flight and nothing started or ended
 * for this long (after scrolling, QUIET_AFTER_SCROLL_MS). Short, because the wait does not rest on it alone: the page
 * is also given one rendering update and the timers due by then (`nextFrame`), which is where scripts
 * start what they fetch after `load`, and a request that ends restarts this window, so a fetch chained
 * on another (the second starts when the first's answer is read) is waited for too.
 */
const QUIET_AFTER_LOAD_MS = 25;
/**
 * Never done sooner than this after `load`: a script's short timer there (a redirect, a fetch) still
 * counts. The earlier rule, a fixed 75 ms window from `load` in which only new requests counted, cost
 * more on every page and missed a chained fetch (renderer README, "Settling").
 */
const MIN_AFTER_LOAD_MS = 50;
/** After scrolling for lazy content: quiet this long, as before the rounds were added (scrollThrough says why). */
const QUIET_AFTER_SCROLL_MS = 75;
/** `nextFrame` waits at most this long: a page that throttles or replaces requestAnimationFrame does not hold it. */
const FRAME_WAIT_MS = 100;
/** Rounds of "a frame and a quiet network" after `load` at most (quietAfterScripts). */
const MAX_QUIET_ROUNDS = 4;
/** A request pending longer than this (long poll, stuck beacon, endless stream) no longer holds the page back. */
const STALE_MS = 1_500;

export interface NetworkActivity {
  /** Requests in flight that started less than STALE_MS ago, leaving out those for `except`'s URLs. */
  freshInFlight(except?: ReadonlySet<string>): number;
  /** When a request last started or ended, leaving out those for `except`'s URLs. */
  lastActivity(except?: ReadonlySet<string>): number;
  /**
   * The same, counting only requests that can change the document: not images, media or fonts,
   * which only paint it. What a snapshot's scroll waits for (scrollThrough).
   */
  documentOnly?(): NetworkActivity;
}

/** Requests that fill in pixels of elements already in the document, and change nothing a snapshot reads. */
const PIXELS_ONLY = new Set(['image', 'media', 'font']);

/**
 * Requests of these types never change what the page paints: the browser's own favicon fetch
 * (`other`; it starts right after `load` and held every page back by its round trip plus the quiet
 * window: settle took 110-240 ms past `load` on the bench pages, test/bench/trace-breakdown.ts),
 * beacons, CSP reports, prefetches, CORS preflights (the fetch a preflight precedes is counted).
 * Playwright passes CDP's type through, lower-cased, where it has no name of its own.
 */
const UNPAINTED = new Set(['other', 'ping', 'cspviolationreport', 'prefetch', 'preflight']);

function counts(r: Request): boolean {
  return !UNPAINTED.has(r.resourceType());
}

/** Counts requests in flight, for "network quiet". Attach before navigation. */
export function trackNetwork(page: Page): NetworkActivity {
  const all = activityOf();
  const documentOnly = activityOf();
  const done = (r: Request): void => {
    all.done(r);
    documentOnly.done(r);
  };
  page.on('request', (r) => {
    if (!counts(r)) return;
    all.start(r);
    if (!PIXELS_ONLY.has(r.resourceType())) documentOnly.start(r);
  });
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return { ...all.view, documentOnly: () => documentOnly.view };
}

/** Starts and ends kept for `lastActivity(except)`: the latest ones, which is all it reads. */
const KEPT_EVENTS = 1_000;

/** One count of requests in flight and of when they last started or ended. */
function activityOf(): { start(r: Request): void; done(r: Request): void; view: NetworkActivity } {
  const pending = new Map<Request, { started: number; url: string }>();
  // In time order; when trimmed, the oldest kept stands for what went before (a later time: a
  // longer wait, never a shorter one).
  const events: Array<{ at: number; url: string }> = [{ at: Date.now(), url: '' }];
  const record = (url: string): void => {
    events.push({ at: Date.now(), url });
    if (events.length > 2 * KEPT_EVENTS) events.splice(0, KEPT_EVENTS);
  };
  return {
    start(r) {
      pending.set(r, { started: Date.now(), url: r.url() });
      record(r.url());
    },
    done(r) {
      if (pending.delete(r)) record(r.url());
    },
    view: {
      freshInFlight: (except) => {
        const now = Date.now();
        let n = 0;
        for (const { started, url } of pending.values()) if (now - started < STALE_MS && !except?.has(url)) n++;
        return n;
      },
      lastActivity: (except) => {
        for (let i = events.length - 1; i > 0; i--) if (!except?.has(events[i]!.url)) return events[i]!.at;
        return events[0]!.at;
      },
    },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));

const NONE: ReadonlySet<string> = new Set();

/**
 * Resolves when no request is in flight and none has started or ended for `quietMs` (counted from
 * `since` at the earliest), or at `until` (epoch ms). Requests for the URLs `except()` names at the
 * time of each look are left out.
 */
async function networkQuiet(net: NetworkActivity, until: number, quietMs = QUIET_MS, since = 0, except = (): ReadonlySet<string> => NONE): Promise<void> {
  while (Date.now() < until) {
    const idle = net.freshInFlight(except()) === 0;
    const quietFor = Date.now() - Math.max(since, net.lastActivity(except()));
    if (idle && quietFor >= quietMs) return;
    // Idle: wake when the window would end (activity meanwhile moves it); busy: look again soon.
    await sleep(Math.min(idle ? quietMs - quietFor : 10, until - Date.now()));
  }
}

/** At most this many image URLs come back from `offscreenImages`. */
const MAX_OFFSCREEN_URLS = 500;

/**
 * Runs in the page (sent as source, so self-contained): resolves after one rendering update and the
 * zero-delay timers due by then, or after `wait` ms. With `offscreen`, it gives the URLs of the
 * `<img>` elements wholly outside the viewport then, less any URL an image inside it shows too: their
 * pixels are not in a viewport capture. An image not loaded yet may have no size: one on the
 * viewport's edge (at its top-left corner, say) counts as inside.
 */
function afterFrame([wait, offscreen, max]: readonly [number, boolean, number]): Promise<string[]> {
  const offscreenImages = (): string[] => {
    if (!offscreen) return [];
    const inside = new Set<string>();
    const outside = new Set<string>();
    for (const img of Array.from(document.images)) {
      const url = img.currentSrc || img.src;
      if (!url || url.startsWith('data:')) continue;
      const b = img.getBoundingClientRect();
      (b.bottom >= 0 && b.top <= innerHeight && b.right >= 0 && b.left <= innerWidth ? inside : outside).add(url);
    }
    return [...outside].filter((u) => !inside.has(u)).slice(0, max);
  };
  return new Promise<string[]>((r) => {
    const fallback = setTimeout(() => r(offscreenImages()), wait);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(fallback);
        r(offscreenImages());
      }, 0),
    );
  });
}

/**
 * One rendering update of the page and the zero-delay timers queued by then (at most
 * FRAME_WAIT_MS): where a page's scripts react to `load`, so the requests they start have started
 * once this returns. A page that navigated or closed meanwhile has nothing to wait for. With
 * `offscreen`, it also says which images lie outside the viewport after that update (undefined when
 * the page did not answer).
 */
async function nextFrame(page: Page, until: number, offscreen = false): Promise<ReadonlySet<string> | undefined> {
  const wait = Math.max(0, Math.min(FRAME_WAIT_MS, until - Date.now()));
  if (wait === 0) return undefined;
  const framed = page
    .evaluate(afterFrame, [wait, offscreen, MAX_OFFSCREEN_URLS] as const)
    .then((urls) => new Set(urls))
    .catch(() => undefined);
  // A main thread held by the page's own script answers nothing (stopRunawayScript deals with it later).
  let timer: NodeJS.Timeout | undefined;
  const answer = await Promise.race([framed, new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), wait + 50)))]);
  clearTimeout(timer);
  return offscreen ? answer : undefined;
}

/**
 * Quiet after `load` or a scroll: a frame for the page's scripts and no request in flight, none
 * started or ended for `quietMs`, not sooner than `notBefore`. Another round follows while a
 * round saw a request that can change the document start or end: the page gets a frame to act on
 * what arrived (a fetch chained on another's answer), which keeps pace with a slow page where a
 * fixed window would not.
 */
async function quietAfterScripts(
  page: Page,
  net: NetworkActivity,
  until: number,
  notBefore = 0,
  quietMs = QUIET_AFTER_LOAD_MS,
  viewportOnly = false,
): Promise<{ rounds: number; offscreen: number }> {
  // Another round only when the page may have acted on what a round saw: a request that can change
  // the document (a fetch, a script, a stylesheet, a frame) started or ended. An image, a font or a
  // media file only paints; the quiet network of the round that saw it start waits for its pixels,
  // except (viewportOnly) an image's whose element lies outside the viewport, learnt from the
  // round's frame: until the frame answers, every request counts.
  const cues = net.documentOnly?.() ?? net;
  let offscreen = NONE;
  let round = 0;
  while (round < MAX_QUIET_ROUNDS && Date.now() < until) {
    round++;
    const before = cues.lastActivity();
    const frame = nextFrame(page, until, viewportOnly).then((urls) => {
      if (urls) offscreen = urls;
    });
    await Promise.all([frame, networkQuiet(net, until, quietMs, notBefore - quietMs, () => offscreen)]);
    if (cues.lastActivity() === before && net.freshInFlight(offscreen) === 0) break;
  }
  return { rounds: round, offscreen: offscreen.size };
}

/**
 * What `settle` waited for: ms until `load` (or a quiet network), ms after it, rounds after it, and
 * how many images outside the viewport it did not wait for.
 */
export interface SettleTimes {
  loadedMs: number;
  afterLoadMs: number;
  rounds: number;
  offscreenImages: number;
}

/** `onLoaded` is called once the page has loaded (or gone quiet), when what is left is waiting for its scripts. */
/**
 * `viewportOnly`: only the viewport is captured, so an image whose element lies wholly outside it is
 * not waited for after `load` (a listing's lazy photos below the fold, which start at layout).
 */
export async function settle(page: Page, net: NetworkActivity, until: number, onLoaded?: () => void, viewportOnly = false): Promise<SettleTimes> {
  const started = Date.now();
  if (until <= started) return { loadedMs: 0, afterLoadMs: 0, rounds: 0, offscreenImages: 0 };
  const load = page.waitForLoadState('load', { timeout: Math.max(1, until - Date.now()) }).catch(() => undefined);
  await Promise.race([load, networkQuiet(net, until)]);
  onLoaded?.();
  // After `load`, scripts that fetch content (SPAs render after load) get a frame and a quiet network.
  const loaded = Date.now();
  const quiet = await quietAfterScripts(page, net, Math.min(until, loaded + 2_000), loaded + MIN_AFTER_LOAD_MS, QUIET_AFTER_LOAD_MS, viewportOnly);
  return { loadedMs: loaded - started, afterLoadMs: Date.now() - loaded, rounds: quiet.rounds, offscreenImages: quiet.offscreen };
}

/**
 * Recorded before the page's scripts run (added in `openPage` for a snapshot's page): the elements the page
 * asks an IntersectionObserver to watch, which is how scripts load what is scrolled into view
 * (lazy images and sections, reveal-on-scroll effects). `scrollThrough` visits only the viewports
 * that hold one of them (or another lazy marker, below) instead of every viewport.
 */
export const OBSERVED_ELEMENTS_SCRIPT = `(() => {
  const IO = window.IntersectionObserver;
  if (!IO || !IO.prototype) return;
  const seen = new Set();
  Object.defineProperty(window, Symbol.for('enrich.observed'), { value: seen });
  const observe = IO.prototype.observe;
  IO.prototype.observe = function (target) {
    if (seen.size < 5000 && target instanceof Element) seen.add(new WeakRef(target));
    return observe.call(this, target);
  };
})();`;

/**
 * Scrolls down so lazy images and sections load, then back to the top. A page no taller than its
 * viewport has nothing below the fold, and when scrolling starts no request there is nothing to wait
 * for: both cost nothing.
 * - `every` (full-page captures, whose pixels must all be there): every viewport in turn, one
 *   rendering update each (a frame, ~17 ms: 14 frames, ~230 ms, on the bench's news article).
 * - otherwise (the snapshot): only where something loads when seen, top to bottom, and the end:
 *   the first such element not yet shown whole is put a quarter down the viewport (so observers
 *   that want it well inside, and scroll handlers with an offset, see it), which shows what follows
 *   it for three quarters of a viewport, and so on. Such elements: those the page's
 *   IntersectionObservers watch (OBSERVED_ELEMENTS_SCRIPT) and the attributes and classes of lazy
 *   loaders and reveal-on-scroll libraries (`data-src`, `data-original`, `.lazyload`, `.wow`,
 *   `data-aos`, ...), looked at again after each visit, so what a visit adds is visited too. Native
 *   `loading=lazy` images and frames are left to the browser: the DOM already holds what the
 *   analyzers read of them, and a visit cost a frame, a fetch and a decode each (README,
 *   "Scrolling"). A page with none is visited at its end only (infinite lists and "load more"
 *   footers load there).
 */
export async function scrollThrough(page: Page, net: NetworkActivity, until: number, opts: { every?: boolean; maxSteps?: number } = {}): Promise<void> {
  if (until <= Date.now()) return;
  const scrollStart = Date.now();
  const scrolled = await page
    .evaluate(
      async ({ maxSteps, budget, every }) => {
        if (document.documentElement.scrollHeight <= window.innerHeight + 2) return false;
        const stop = Date.now() + budget;
        const step = Math.max(200, Math.floor(window.innerHeight * 0.9));
        const LAZY = `${every ? 'img[loading=lazy], iframe[loading=lazy], ' : ''}[data-src], [data-srcset], [data-original], [data-lazy], [data-lazy-src], [data-bg], [data-background], [data-background-image], .lazy, .lazyload, .wow, [data-aos], [data-sal], [data-scroll], [data-animate]`;
        const observed = (window as unknown as Record<symbol, Set<WeakRef<Element>> | undefined>)[Symbol.for('enrich.observed')];
        const bottom = (): number => Math.max(0, document.documentElement.scrollHeight - window.innerHeight);
        // What a visit shows whole: from its top to three quarters down the viewport (the last
        // quarter only partly, for observers that want an element well inside the viewport).
        const shown = Math.floor(window.innerHeight * 0.75);
        // The next scroll position: `every` steps a viewport at a time; otherwise the first lazy element
        // not yet shown whole is put a quarter down the viewport, and the page's end comes last.
        const next = (seenTo: number, y: number): number | undefined => {
          const end = bottom();
          if (y >= end) return undefined;
          if (every) return Math.min(end, y + step);
          let first = Number.POSITIVE_INFINITY;
          const place = (el: Element): void => {
            const b = el.getBoundingClientRect();
            if (b.width === 0 && b.height === 0) return;
            const top = b.top + window.scrollY;
            if (top >= seenTo && top < first) first = top;
          };
          for (const el of Array.from(document.querySelectorAll(LAZY)).slice(0, 5000)) place(el);
          for (const ref of observed ?? []) {
            const el = ref.deref();
            if (el?.isConnected) place(el);
          }
          return Number.isFinite(first) ? Math.min(end, Math.max(y + 1, Math.floor(first - window.innerHeight / 4))) : end;
        };
        let y = 0;
        let seenTo = shown;
        for (let i = 0; i < maxSteps && Date.now() < stop; i++) {
          const to = next(seenTo, y);
          if (to === undefined) break;
          y = to;
          seenTo = y + shown;
          window.scrollTo(0, y);
          // One rendering update (where intersection observers and native lazy loading look) and
          // the observers' callbacks after it; a fixed 35 ms here cost twice as long per step. At
          // most 100 ms: a page that throttles or replaces requestAnimationFrame does not hold it.
          await new Promise<void>((r) => {
            const fallback = setTimeout(r, 100);
            requestAnimationFrame(() =>
              setTimeout(() => {
                clearTimeout(fallback);
                r();
              }, 0),
            );
          });
        }
        window.scrollTo(0, 0);
        return true;
      },
      { maxSteps: opts.maxSteps ?? 40, budget: Math.max(0, until - Date.now()), every: opts.every === true },
    )
    .catch(() => false);
  if (!scrolled) return;
  // A full-page capture needs the pixels of what the scroll brought in; the snapshot needs only the
  // document: an image the scroll started loading (a native lazy image near the end, or one a lazy
  // loader's data-src swap requested, src already set) changes nothing it reads. Waiting for those
  // held the shop listing's /enrich 130-180 ms (trace-breakdown, render.scroll).
  const watched = opts.every === true ? net : (net.documentOnly?.() ?? net);
  if (watched.freshInFlight() === 0 && watched.lastActivity() < scrollStart) return;
  // Lazy content starts from intersection observers and scroll handlers, whose work a loaded
  // machine delays beyond the 25 ms after `load`: the window here stays at 75 ms (render.test.ts,
  // "loads lazy images below the fold", failed with 25 ms in a full suite run).
  await quietAfterScripts(page, watched, Math.min(until, Date.now() + 3_000), 0, QUIET_AFTER_SCROLL_MS);
}

/**
 * A page whose own script holds its main thread this long once it has settled (an endless loop in a
 * `load` handler) has that script stopped, so that the page can still be read and captured: every
 * page call (scrolling, reading, the capture) needs the main thread, and would wait for the deadline
 * with a CPU core spinning.
 */
export const RUNAWAY_SCRIPT_MS = 5_000;

/**
 * Asks the page for a trivial evaluation; when no answer comes within RUNAWAY_SCRIPT_MS (or by
 * `until`), terminates the JavaScript running in the page (CDP Runtime.terminateExecution, which
 * interrupts a busy main thread) and says so. Called between the renderer's own page calls, so only
 * the page's script can be the one stopped. `interrupt` must have been attached while the page was
 * idle (context.ts): a session attached to a spinning page is never answered.
 */
export async function stopRunawayScript(page: Page, interrupt: CDPSession | undefined, until: number): Promise<boolean> {
  if (!interrupt) return false;
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(1, Math.min(RUNAWAY_SCRIPT_MS, until - Date.now())))));
  const answered = page.evaluate('0').then(
    () => true,
    () => true, // a navigation or a closed page is not a busy one
  );
  try {
    if (await Promise.race([answered, waited])) return false;
  } finally {
    clearTimeout(timer);
  }
  // A page that closed or crashed meanwhile cannot be stopped; the deadline ends that job.
  return interrupt.send('Runtime.terminateExecution').then(
    () => true,
    () => false,
  );
}
