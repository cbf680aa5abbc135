/**
 * Waiting for a page to be "done" without trusting it to ever go idle: after DOMContentLoaded we
 * wait for the load event or a quiet network, whichever comes first, never beyond a cap; then
 * (for full captures and snapshots) scroll through the page so lazy content loads.
 */
import type { Page, Request } from 'playwright-core';

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
  lastActivity(): number;
}

/** Counts requests in flight, for "network quiet". Attach before navigation. */
export function trackNetwork(page: Page): NetworkActivity {
  const pending = new Map<Request, number>();
  let last = Date.now();
  const done = (r: Request): void => {
    pending.delete(r);
    last = Date.now();
  };
  page.on('request', (r) => {
    pending.set(r, Date.now());
    last = Date.now();
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
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** Resolves when the network has been quiet for `quietMs`, or at `until` (epoch ms). */
async function networkQuiet(net: NetworkActivity, until: number, quietMs = QUIET_MS): Promise<void> {
  while (Date.now() < until) {
    if (net.freshInFlight() === 0 && Date.now() - net.lastActivity() >= quietMs) return;
    await sleep(Math.min(25, until - Date.now()));
  }
}

export async function settle(page: Page, net: NetworkActivity, until: number): Promise<void> {
  if (until <= Date.now()) return;
  const load = page.waitForLoadState('load', { timeout: Math.max(1, until - Date.now()) }).catch(() => undefined);
  await Promise.race([load, networkQuiet(net, until)]);
  // After `load`, give scripts that fetch content a short quiet period too (SPAs render after load).
  await networkQuiet(net, Math.min(until, Date.now() + 2_000), QUIET_AFTER_LOAD_MS);
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
          await new Promise((r) => setTimeout(r, 35));
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
