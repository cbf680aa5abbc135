/**
 * A spare page: the context, its page and its egress proxy opened ahead, while the renderer is idle,
 * so the next job skips the most expensive step it does not need a URL for. Opening a context and its
 * page costs 170-240 ms on 2 cores (test/bench/trace-breakdown.ts, span `render.context`), a third of
 * a `/screenshot`.
 *
 * When: once a job ends and no other job runs or waits. That pays off when requests come with gaps;
 * a client that sends its next request the moment the answer comes (a loop, a bulk run at
 * concurrency 1) finds the spare still opening. So when jobs come back to back (this one started
 * less than BACK_TO_BACK_MS after the last one ended) and this job is the only one, the next job's
 * spare is opened as soon as this job's page has loaded, while it settles: the opening then slows
 * this job by about half what it saves the next (a bare loop on the bench pages, 2 cores:
 * 348 -> 280 ms a shot at p50; opened at DOMContentLoaded 289 ms, once settled 327 ms). Never
 * beside another job (a spare opened beside a running navigation slowed it: goto 100 -> 340 ms),
 * so under load none is opened and memory stays as it was. At most one per renderer process.
 *
 * A spare is as fresh as any context (never navigated, no cookies or storage), and until a job binds
 * its guard, its proxy and routes refuse every request.
 */
import type { Browser } from 'playwright-core';
import type { Viewport } from '@enrich/shared/contracts';
import type { Logger } from 'pino';
import { openContext, type OpenedPage } from './phases/context.ts';

/**
 * A job that starts within this long of the last one's answer is part of a back-to-back run: the spare
 * opened when that answer went out (closing the old context, 10-45 ms, then 170-240 ms to open on 2
 * cores) is not ready for it.
 */
export const BACK_TO_BACK_MS = 300;

export interface SparePages {
  /** The spare for `browser` at `viewport`, once open, or null; taking it makes it the caller's to close. */
  take(browser: Browser, viewport: Viewport): Promise<OpenedPage | null>;
  /** Opens a spare on `browser` unless one is held. */
  refill(browser: Browser, viewport: Viewport): void;
  /** Whether a spare is held or opening (for tests and the pool's context count). */
  held(): boolean;
  /** A job starts: true when it follows the last job's answer within BACK_TO_BACK_MS (its spare should be opened ahead). */
  jobStarted(): boolean;
  /** A job has its answer. */
  jobEnded(): void;
  close(): Promise<void>;
}

interface Spare {
  browser: Browser;
  viewport: Viewport;
  opening: Promise<OpenedPage | null>;
}

async function closeOpened(opened: OpenedPage | null): Promise<void> {
  if (!opened) return;
  await opened.context.close().catch(() => undefined);
  await opened.proxy.close().catch(() => undefined);
}

export function createSparePages(log: Logger, enabled = true): SparePages {
  let spare: Spare | null = null;
  let closed = !enabled;
  let lastEnded = Number.NEGATIVE_INFINITY;

  const discard = (s: Spare): void => {
    void s.opening.then(closeOpened);
  };

  return {
    async take(browser, viewport) {
      const s = spare;
      if (!s) return null;
      spare = null;
      if (s.browser !== browser || s.viewport.width !== viewport.width || s.viewport.height !== viewport.height) {
        discard(s); // a recycled browser or another viewport: opened fresh for this job
        return null;
      }
      const opened = await s.opening;
      if (!opened || !browser.isConnected() || opened.page.isClosed()) {
        void closeOpened(opened);
        return null;
      }
      return opened;
    },
    refill(browser, viewport) {
      if (closed || spare || !browser.isConnected()) return;
      const opening = openContext(browser, viewport).catch((err: unknown) => {
        log.debug({ err }, 'spare page not opened');
        return null;
      });
      spare = { browser, viewport, opening };
    },
    held: () => spare !== null,
    jobStarted: () => !closed && Date.now() - lastEnded < BACK_TO_BACK_MS,
    jobEnded() {
      lastEnded = Date.now();
    },
    async close() {
      closed = true;
      const s = spare;
      spare = null;
      if (s) await s.opening.then(closeOpened);
    },
  };
}
