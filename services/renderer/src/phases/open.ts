/**
 * Phase 1: a fresh context behind the job's own egress proxy (no shared cookies or storage, service
 * workers blocked, downloads refused, media and archives aborted, every request asked of the guard),
 * one page, and the watchers the later phases read.
 */
import type { Browser, BrowserContext, Page, Route, WebSocketRoute } from 'playwright-core';
import { SNAPSHOT_LIMITS as L, type Viewport } from '@enrich/shared/contracts';
import { DeadlineExceededError } from '@enrich/shared/errors';
import { createGuardSwitch, type EgressGuard, type GuardSwitch } from '../egress/guard.ts';
import { startEgressProxy, type EgressProxy } from '../egress/proxy.ts';
import { recordNetwork, type NetworkLog } from '../network-log.ts';
import type { RenderRun } from '../run.ts';
import { trackNetwork, type NetworkActivity } from '../settle.ts';
import { inSpan } from '../tracing.ts';
import { trackMainResponse, type MainResponse } from '../walls/index.ts';

/** What one job holds and must close when it ends, whatever happened. */
export interface Held {
  proxy?: EgressProxy;
  context?: BrowserContext;
}

/** What the later phases read from the page's events. */
export interface PageWatch {
  net: NetworkActivity;
  main: MainResponse;
  wire: NetworkLog;
}

const BLOCKED_TYPES = new Set(['media']);
const BLOCKED_PATH = /\.(mp4|webm|ogv|mov|m4v|avi|mkv|mp3|m4a|ogg|oga|wav|flac|aac|zip|gz|tgz|rar|7z|dmg|exe|msi|iso|apk)(\?|$)/i;

function userAgentFor(version: string): string {
  const major = /^(\d+)/.exec(version)?.[1] ?? '130';
  // Headless Chromium announces itself as HeadlessChrome, which many sites answer with a block page.
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}

function guardContext(context: BrowserContext, guard: EgressGuard): Promise<unknown> {
  const requests = context.route('**/*', async (route: Route) => {
    const req = route.request();
    const url = req.url();
    if (BLOCKED_TYPES.has(req.resourceType()) || (req.resourceType() !== 'document' && BLOCKED_PATH.test(new URL(url).pathname))) {
      return route.abort('blockedbyclient').catch(() => undefined);
    }
    if (!/^(https?|wss?):/i.test(url)) return route.continue().catch(() => undefined);
    const verdict = await guard.check(url);
    if (verdict.ok) return route.continue().catch(() => undefined);
    guard.refuse({
      url,
      kind: verdict.kind === 'forbidden' ? 'forbidden' : 'unreachable',
      reason: verdict.reason,
      netError: verdict.kind === 'forbidden' ? 'net::ERR_BLOCKED_BY_CLIENT' : 'net::ERR_NAME_NOT_RESOLVED',
    });
    return route.abort(verdict.kind === 'forbidden' ? 'blockedbyclient' : 'namenotresolved').catch(() => undefined);
  });
  const sockets = context.routeWebSocket(
    () => true,
    async (ws: WebSocketRoute) => {
      const verdict = await guard.check(ws.url());
      if (verdict.ok) return ws.connectToServer();
      guard.refuse({ url: ws.url(), kind: 'forbidden', reason: verdict.reason, netError: 'net::ERR_BLOCKED_BY_CLIENT' });
      return ws.close({ code: 1008, reason: 'refused by the renderer' });
    },
  );
  return Promise.all([requests, sockets]);
}

/** A context and its page behind their own egress proxy, not yet any job's until its guard is bound. */
export interface OpenedPage {
  proxy: EgressProxy;
  context: BrowserContext;
  page: Page;
  guard: GuardSwitch;
}

/**
 * Opens a context (no shared cookies or storage, service workers blocked, downloads refused, every
 * request asked of the guard) and its page. What is opened goes into `held` at once, so a job that
 * ends meanwhile closes it.
 */
export async function openContext(browser: Browser, viewport: Viewport, held: Held = {}): Promise<OpenedPage> {
  const guard = createGuardSwitch();
  const proxy = await startEgressProxy(guard);
  held.proxy = proxy;
  const context = await browser.newContext({
    viewport,
    deviceScaleFactor: 1,
    serviceWorkers: 'block',
    acceptDownloads: false,
    proxy: { server: proxy.url },
    userAgent: userAgentFor(browser.version()),
    locale: 'en-US',
  });
  held.context = context;
  // The routes must be in place before navigation, not before the page exists: one round trip, not three.
  const [page] = await Promise.all([context.newPage(), guardContext(context, guard)]);
  return { proxy, context, page, guard };
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
    textTypes: new Set(req.snapshot ? (req.scripts ? ['stylesheet', 'script'] : ['stylesheet']) : []),
    maxResources: L.resources,
    maxTextChars: L.stylesheetChars,
    maxTotalChars: L.stylesheetsTotalChars,
  });
  return { net, main, wire };
}
