/**
 * Waiting for a page to be "done" without trusting it to ever go idle: after DOMContentLoaded we
 * wait for the load event or a quiet network, whichever comes first, never beyond a cap; then
 * (for full captures and snapshots) scroll through the page so lazy content loads.
 */
import type { CDPSession, Page, Request } from 'playwright-core';

/** Before `load`: quiet this long counts as done (Playwright's own "networkidle" window). */
const QUIET_MS = 500;
/**
 * After `load`: requests still in flight are always waited for (that is what catches an SPA fetching
 * its data); this window only catches requests that start after the network went quiet, which scripts
 * do within a frame or two. 75 ms keeps /screenshot at the speed of a bare `goto` + screenshot
 * (test/bench/trace-breakdown.ts: settle 310 ms with 200 ms, 161 ms with 75 ms on bench-saas).
 */
const QUIET_AFTER_LOAD_MS = 75;
/** A request pending longer than this (long poll, stuck beacon, endless stream) no longer holds the page back. */
const STALE_MS = 1_500;

export interface NetworkActivity {
  /** Requests in flight that started less than STALE_MS ago. */
  freshInFlight(): number;
  /** When a request last started or ended. */
  lastActivity(): number;
  /** When a request last started. */
  lastStart(): number;
}

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
  const pending = new Map<Request, number>();
  let last = Date.now();
  let lastStart = last;
  const done = (r: Request): void => {
    if (pending.delete(r)) last = Date.now();
  };
  page.on('request', (r) => {
    if (!counts(r)) return;
    pending.set(r, Date.now());
    last = Date.now();
    lastStart = last;
  });
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    freshInFlight: () => {
      const now = Date.now();
      let n = 0;
      for (const started of pending.values()) if (now - started < STALE_MS) n++;
      return n;
    },
    lastActivity: () => last,
    lastStart: () => lastStart,
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/**
 * Resolves when no request is in flight and none has started or ended for `quietMs`, or at `until`
 * (epoch ms). With `startsSince`, only requests starting after that time break the quiet: the
 * window runs from then while the requests already in flight end.
 */
async function networkQuiet(net: NetworkActivity, until: number, quietMs = QUIET_MS, startsSince?: number): Promise<void> {
  while (Date.now() < until) {
    const idle = net.freshInFlight() === 0;
    const quietFor = Date.now() - (startsSince === undefined ? net.lastActivity() : Math.max(startsSince, net.lastStart()));
    if (idle && quietFor >= quietMs) return;
    // Idle: wake when the window would end (activity meanwhile moves it); busy: look again soon.
    await sleep(Math.min(idle ? quietMs - quietFor : 25, until - Date.now()));
  }
}

export async function settle(page: Page, net: NetworkActivity, until: number): Promise<void> {
  if (until <= Date.now()) return;
  const load = page.waitForLoadState('load', { timeout: Math.max(1, until - Date.now()) }).catch(() => undefined);
  await Promise.race([load, networkQuiet(net, until)]);
  // After `load`, give scripts that fetch content a short quiet period too (SPAs render after load).
  // Requests already in flight are waited for, but their ends do not restart the window: the
  // browser reports many of them finished only after `load` (50 ms after it on bench-saas).
  const loaded = Date.now();
  await networkQuiet(net, Math.min(until, loaded + 2_000), QUIET_AFTER_LOAD_MS, loaded);
}

/**
 * Scrolls down a viewport at a time so lazy images and infinite sections load, then back to the top.
 * A page no taller than its viewport has nothing below the fold, and when scrolling starts no
 * request there is nothing to wait for: both cost nothing.
 */
export async function scrollThrough(page: Page, net: NetworkActivity, until: number, maxSteps = 40): Promise<void> {
  if (until <= Date.now()) return;
  const scrollStart = Date.now();
  const scrolled = await page
    .evaluate(
      async ({ maxSteps, budget }) => {
        if (document.documentElement.scrollHeight <= window.innerHeight + 2) return false;
        const stop = Date.now() + budget;
        const step = Math.max(200, Math.floor(window.innerHeight * 0.9));
        for (let i = 0, y = 0; i < maxSteps && Date.now() < stop; i++) {
          y += step;
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
          if (y >= document.documentElement.scrollHeight - window.innerHeight) break;
        }
        window.scrollTo(0, 0);
        return true;
      },
      { maxSteps, budget: Math.max(0, until - Date.now()) },
    )
    .catch(() => false);
  if (!scrolled) return;
  if (net.freshInFlight() === 0 && net.lastActivity() < scrollStart) return;
  await networkQuiet(net, Math.min(until, Date.now() + 3_000), QUIET_AFTER_LOAD_MS);
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
