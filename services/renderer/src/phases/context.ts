/**
 * A fresh context behind its own egress proxy (no shared cookies or storage, service workers
 * blocked, downloads refused, media and archives failed, every connection asked of the guard) and one
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
 * Files a render never needs: video and audio (a hero video costs its download and its decoding on
 * the CPU the next render wants), archives and installers. Asked of Chromium as interception patterns
 * (blockMediaAndArchives), so only these requests stop on their way; any other goes straight to the
 * egress proxy.
 */
const BLOCKED_EXTENSIONS = 'mp4 webm ogv mov m4v avi mkv mp3 m4a ogg oga wav flac aac zip gz tgz rar 7z dmg exe msi iso apk'.split(' ');
const BLOCKED_PATTERNS: ReadonlyArray<{ urlPattern?: string; resourceType?: 'Media' }> = [
  { resourceType: 'Media' },
  ...BLOCKED_EXTENSIONS.flatMap((e) => [{ urlPattern: `*.${e}` }, { urlPattern: `*.${e}?*` }]),
];

function userAgentFor(version: string): string {
  const major = /^(\d+)/.exec(version)?.[1] ?? '130';
  // Headless Chromium announces itself as HeadlessChrome, which many sites answer with a block page.
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}

/**
 * Fails the page's media, archive and installer requests in the browser (BLOCKED_PATTERNS): only
 * those stop for this process; a navigation to such a URL is let through (the answer decides).
 *
 * Every connection of the page, websockets included, is checked by the egress proxy alone (a refused
 * socket fails as if the network had refused it). Playwright's routing is not used: `context.route`
 * stops every request of the page in the browser and sends it to this process and back (22-47 ms
 * of CPU and 11-26 ms of p50 per bench page); `routeWebSocket` injects its socket mock into every
 * document and relays every message of an allowed socket through this process (10-30 ms of CPU per
 * request, none of them opening a socket; README, "Settling"). Media in a cross-origin frame (its
 * own DevTools target) is not failed here; the proxy's byte budget bounds it.
 */
async function blockMediaAndArchives(session: CDPSession): Promise<void> {
  session.on('Fetch.requestPaused', (e) => {
    const next =
      e.resourceType === 'Document'
        ? session.send('Fetch.continueRequest', { requestId: e.requestId })
        : session.send('Fetch.failRequest', { requestId: e.requestId, errorReason: 'BlockedByClient' });
    next.catch(() => undefined); // the page closed meanwhile
  });
  await session.send('Fetch.enable', { patterns: [...BLOCKED_PATTERNS] });
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
  const session = opening.then(async (p) => {
    const cdp = await context.newCDPSession(p);
    await blockMediaAndArchives(cdp);
    return cdp;
  });
  const [page, interrupt] = await Promise.all([opening, session]);
  interruptSessions.set(page, interrupt);
  return { proxy, context, page, guard };
}

const interruptSessions = new WeakMap<Page, CDPSession>();

/** The session opened with the page for stopping a runaway script (settle.ts `stopRunawayScript`). */
export function interruptSessionOf(page: Page): CDPSession | undefined {
  return interruptSessions.get(page);
}
