/**
 * Phase 1: the job's context and page (a spare opened ahead, else a new one: context.ts) bound to
 * the job's guard, and the watchers the later phases read.
 */
import type { Browser, Page } from 'playwright-core';
import { SNAPSHOT_LIMITS as L } from '@enrich/shared/contracts';
import { DeadlineExceededError } from '@enrich/shared/errors';
import { recordNetwork, type NetworkLog } from '../network-log.ts';
import type { RenderRun } from '../run.ts';
import { OBSERVED_ELEMENTS_SCRIPT, trackNetwork, type NetworkActivity } from '../settle.ts';
import { inSpan } from '../tracing.ts';
import { trackMainResponse, type MainResponse } from '../walls/index.ts';
import { openContext, type Held } from './context.ts';

export type { Held } from './context.ts';

/** What the later phases read from the page's events. */
export interface PageWatch {
  net: NetworkActivity;
  main: MainResponse;
  wire: NetworkLog;
}

/**
 * The job's context and page (span `render.context`): the spare opened while the renderer was idle
 * (spare.ts) when there is one for this browser and viewport, else a new one.
 */
export async function openPage(run: RenderRun, browser: Browser, held: Held): Promise<Page> {
  run.stage = 'opening a context';
  return inSpan('context', async (span) => {
    const spare = await run.deps.spares.take(browser, run.req.viewport);
    span.setAttribute('spare', spare !== null);
    if (spare) {
      held.proxy = spare.proxy;
      held.context = spare.context;
    }
    const opened = spare ?? (await openContext(browser, run.req.viewport, held));
    opened.guard.bind(run.guard);
    // A snapshot's scroll visits what the page's intersection observers watch (settle.ts): recorded
    // from the first document on. Only then: in every context it cost /screenshot's context 16-44 ms.
    if (run.req.snapshot && run.req.screenshot?.fullPage !== true) await opened.page.addInitScript(OBSERVED_ELEMENTS_SCRIPT);
    if (run.deadlineHit) throw new DeadlineExceededError('render: the budget ran out before the page opened');
    return opened.page;
  });
}

/** Listens from before navigation: crashes, main-frame hops, network quiet, document responses, the wire. */
export function watchPage(run: RenderRun, page: Page): PageWatch {
  page.on('crash', () => {
    run.browserGone = true;
  });
  page.on('request', (r) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) run.navigationHops.push(r.url());
  });
  const net = trackNetwork(page);
  const main = trackMainResponse(page);
  const { req } = run;
  const wire = recordNetwork(page, {
    // Stylesheet bodies only for a snapshot with styles (brand); script bodies only when asked for.
    textTypes: new Set(req.snapshot ? [...(req.styles !== false ? ['stylesheet'] : []), ...(req.scripts ? ['script'] : [])] : []),
    maxResources: L.resources,
    maxTextChars: L.stylesheetChars,
    maxTotalChars: L.stylesheetsTotalChars,
  });
  return { net, main, wire };
}
