/**
 * A fresh context behind its own egress proxy (no shared cookies or storage, service workers
 * blocked, downloads refused, video and audio failed, every connection asked of the guard) and one
 * page: what a job needs before it knows its URL, so the spare (spare.ts) opens it ahead. Nothing
 * here knows the job (no import of run.ts).
 */
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import type { Viewport } from '@enrich/shared/contracts';
import { createGuardSwitch, type GuardSwitch } from '../egress/guard.ts';
import { startEgressProxy, type EgressProxy } from '../egress/proxy.ts';

/** What one job holds and must close when it ends, whatever happened. */
export interface Held {
  proxy?: EgressProxy;
  context?: BrowserContext;
}

/**
 * Video and audio, which a render never needs (a hero video costs its download and its decoding on
 * the CPU the next render wants), fail in every document of the page, its frames' included: each
 * document gets a Content-Security-Policy of `media-src 'none'` as it starts, from a meta element put
 * into its head as soon as the parser has made it and taken out again at once (the policy stays with
 * the document, so neither the page's scripts nor the snapshot see the element). A `<source>` without
 * a file extension and a video a script adds later fail alike.
 *
 * Not DevTools interception: `Fetch.enable`, even with patterns for media alone, sends every request
 * of the page through the browser's interceptor, and cost 18-21 ms of Chromium's CPU a page in a bare
 * Playwright loop over the bench pages (this policy 0-12 ms; README, "Settling"). Archives and
 * installers a page pulls as images or scripts are no longer failed by file name: downloads stay
 * refused, and the egress proxy's byte budget bounds what such a fetch can pull.
 *
 * Every connection of the page, websockets included, is checked by the egress proxy alone (a refused
 * socket fails as if the network had refused it). Playwright's routing is not used: `context.route`
 * stops every request of the page in the browser and sends it to this process and back (22-47 ms
 * of CPU and 11-26 ms of p50 per bench page); `routeWebSocket` injects its socket mock into every
 * document and relays every message of an allowed socket through this process (10-30 ms of CPU per
 * request, none of them opening a socket; README, "Settling").
 */
export const MEDIA_POLICY_SCRIPT = `(() => {
  const apply = (head) => {
    const meta = document.createElement('meta');
    meta.httpEquiv = 'Content-Security-Policy';
    meta.content = "media-src 'none'";
    head.prepend(meta);
    meta.remove();
  };
  if (document.head) return apply(document.head);
  const watch = new MutationObserver(() => {
    if (!document.head) return;
    watch.disconnect();
    apply(document.head);
  });
  watch.observe(document, { childList: true, subtree: true });
})();`;

function userAgentFor(version: string): string {
  const major = /^(\d+)/.exec(version)?.[1] ?? '130';
  // Headless Chromium announces itself as HeadlessChrome, which many sites answer with a block page.
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
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
  // The media policy must be in place before navigation, not before the page exists. A DevTools
  // session attached now, while the page is idle, can interrupt its script later; one attached to a
  // page whose main thread is already spinning is never answered.
  const opening = context.newPage();
  const session = opening.then((p) => context.newCDPSession(p));
  const policy = opening.then((p) => p.addInitScript(MEDIA_POLICY_SCRIPT));
  const [page, interrupt] = await Promise.all([opening, session, policy]);
  interruptSessions.set(page, interrupt);
  return { proxy, context, page, guard };
}

const interruptSessions = new WeakMap<Page, CDPSession>();

/** The session opened with the page for stopping a runaway script (settle.ts `stopRunawayScript`). */
export function interruptSessionOf(page: Page): CDPSession | undefined {
  return interruptSessions.get(page);
}
