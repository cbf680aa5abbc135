/**
 * A spare page: the context, its page and its egress proxy opened ahead, while the renderer is idle,
 * so the next job skips the most expensive step it does not need a URL for. Opening a context and its
 * page costs 170-240 ms on 2 cores (test/bench/trace-breakdown.ts, span `render.context`), a third of
 * a `/screenshot`.
 *
 * Only when idle: a spare opened beside a running navigation slowed that navigation by more than the
 * spare saved (goto 100 -> 340 ms, measured), so one is opened only when a job ends and no other job
 * runs or waits. It pays off when requests come with gaps (a client's next request rarely follows
 * at once; since company and classifier run during an /enrich's capture, only brand's few tens of ms
 * follow its render, so a next request sent the moment /enrich answers may wait for the spare to
 * open); under load none is opened and memory stays as it was. At most one per renderer process.
 *
 * A spare is as fresh as any context (never navigated, no cookies or storage), and until a job binds
 * its guard, its proxy and routes refuse every request.
 */
import type { Browser } from 'playwright-core';
import type { Viewport } from '@enrich/shared/contracts';
import type { Logger } from 'pino';
import { openContext, type OpenedPage } from './phases/context.ts';

export interface SparePages {
  /** The spare for `browser` at `viewport`, once open, or null; taking it makes it the caller's to close. */
  take(browser: Browser, viewport: Viewport): Promise<OpenedPage | null>;
  /** Opens a spare on `browser` unless one is held. */
  refill(browser: Browser, viewport: Viewport): void;
  /** Whether a spare is held or opening (for tests and the pool's context count). */
  held(): boolean;
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
    async close() {
      closed = true;
      const s = spare;
      spare = null;
      if (s) await s.opening.then(closeOpened);
    },
  };
}
