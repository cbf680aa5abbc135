/**
 * A fresh context behind its own egress proxy (no shared cookies or storage, service workers
 * blocked, downloads refused, media and archives aborted, every request asked of the guard) and one
 * page: what a job needs before it knows its URL, so the spare (spare.ts) opens it ahead. Nothing
 * here knows the job (no import of run.ts).
 */
import type { Browser, BrowserContext, CDPSession, Page, Route, WebSocketRoute } from 'playwright-core';
import type { Viewport } from '@enrich/shared/contracts';
import { createGuardSwitch, type EgressGuard, type GuardSwitch } from '../egress/guard.ts';
import { startEgressProxy, type EgressProxy } from '../egress/proxy.ts';

/** What one job holds and must close when it ends, whatever happened. */
export interface Held {
  proxy?: EgressProxy;
  context?: BrowserContext;
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
  // A DevTools session attached now, while the page is idle, can interrupt its script later; one
  // attached to a page whose main thread is already spinning is never answered.
  const opening = context.newPage();
  const [page, interrupt] = await Promise.all([opening, opening.then((p) => context.newCDPSession(p)), guardContext(context, guard)]);
  interruptSessions.set(page, interrupt);
  return { proxy, context, page, guard };
}

const interruptSessions = new WeakMap<Page, CDPSession>();

/** The session opened with the page for stopping a runaway script (settle.ts `stopRunawayScript`). */
export function interruptSessionOf(page: Page): CDPSession | undefined {
  return interruptSessions.get(page);
}
