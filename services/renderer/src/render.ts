/**
 * One `render.page` job: a fresh context behind its own egress proxy, one navigation, then the
 * screenshot and the snapshot from the same loaded page. Every step is bounded by the deadline;
 * page, context and proxy are closed in `finally` whatever happens.
 */
import type { BlockList } from 'node:net';
import type { BrowserContext, Route, WebSocketRoute } from 'playwright-core';
import type { Logger } from 'pino';
import { SNAPSHOT_LIMITS, type LogoRaster, type SiteIconLookup, type RenderRequest, type RenderResult, type Snapshot, type SourceText, type StoredScreenshot } from '@enrich/shared/contracts';
import { DeadlineExceededError, TargetUnreachableError, type ServiceError } from '@enrich/shared/errors';
import { collectDocument } from './collect/document.ts';
import { collectElements } from './collect/elements.ts';
import { runInPage } from './collect/run-in-page.ts';
import { collectStyles } from './collect/styles.ts';
import { createEgressGuard, type EgressGuard } from './egress/guard.ts';
import { EGRESS_HEADER, startEgressProxy, type EgressProxy } from './egress/proxy.ts';
import { refusalError, toRenderError } from './errors.ts';
import { lookUpSiteIcons, rasterizeLogos } from './logos.ts';
import type { RendererMetrics } from './metrics.ts';
import { hideOverlays } from './overlays.ts';
import type { BrowserPool } from './pool.ts';
import { recordNetwork } from './network-log.ts';
import { capturePage, thumbnailOf, type Capture } from './screenshot.ts';
import { settle, scrollThrough, trackNetwork } from './settle.ts';
import type { Resolve } from './ssrf.ts';
import { screenshotKey, type ScreenshotStore } from './storage/index.ts';
import { inSpan } from './tracing.ts';
import { checkContentType, checkWall, trackMainResponse } from './walls/index.ts';

export interface RenderDeps {
  pool: BrowserPool;
  store: ScreenshotStore;
  allow: BlockList;
  resolve: Resolve;
  /** Pixel budget of one capture (SCREENSHOT_MAX_PIXELS). */
  screenshotMaxPixels: number;
  metrics: RendererMetrics;
  log: Logger;
}

export interface JobContext {
  deadline: number;
  signal: AbortSignal;
  log: Logger;
}

const L = SNAPSHOT_LIMITS;
/** Settling never waits longer than this, however much budget is left. */
const SETTLE_CAP_MS = 8_000;
/** Kept back after navigation for collecting, capturing and uploading. */
const RESERVE_MAX_MS = 5_000;
/** Kept back at the very end so cleanup and the reply fit in the budget. */
const CLEANUP_MS = 250;
const BLOCKED_TYPES = new Set(['media']);
const BLOCKED_PATH = /\.(mp4|webm|ogv|mov|m4v|avi|mkv|mp3|m4a|ogg|oga|wav|flac|aac|zip|gz|tgz|rar|7z|dmg|exe|msi|iso|apk)(\?|$)/i;

function userAgentFor(version: string): string {
  const major = /^(\d+)/.exec(version)?.[1] ?? '130';
  // Headless Chromium announces itself as HeadlessChrome, which many sites answer with a block page.
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}

async function guardContext(context: BrowserContext, guard: EgressGuard): Promise<void> {
  await context.route('**/*', async (route: Route) => {
    const req = route.request();
    const url = req.url();
    if (BLOCKED_TYPES.has(req.resourceType()) || (req.resourceType() !== 'document' && BLOCKED_PATH.test(new URL(url).pathname))) {
      return route.abort('blockedbyclient').catch(() => undefined);
    }
    if (!/^(https?|wss?):/i.test(url)) return route.continue().catch(() => undefined);
    const verdict = await guard.check(url);
    if (verdict.ok) return route.continue().catch(() => undefined);
    guard.refuse({ url, kind: verdict.kind === 'forbidden' ? 'forbidden' : 'unreachable', reason: verdict.reason, netError: verdict.kind === 'forbidden' ? 'net::ERR_BLOCKED_BY_CLIENT' : 'net::ERR_NAME_NOT_RESOLVED' });
    return route.abort(verdict.kind === 'forbidden' ? 'blockedbyclient' : 'namenotresolved').catch(() => undefined);
  });
  await context.routeWebSocket(() => true, async (ws: WebSocketRoute) => {
    const verdict = await guard.check(ws.url());
    if (verdict.ok) return ws.connectToServer();
    guard.refuse({ url: ws.url(), kind: 'forbidden', reason: verdict.reason, netError: 'net::ERR_BLOCKED_BY_CLIENT' });
    return ws.close({ code: 1008, reason: 'refused by the renderer' });
  });
}

export async function renderPage(deps: RenderDeps, req: RenderRequest, job: JobContext): Promise<RenderResult> {
  const started = Date.now();
  const budgetMs = Math.max(0, job.deadline - started);
  const timings = { queuedMs: 0, navigationMs: 0, settleMs: 0, collectMs: 0, screenshotMs: 0, totalMs: 0 };
  const guard = createEgressGuard({ resolve: deps.resolve, allow: deps.allow });
  let stage = 'checking the URL';
  let deadlineHit = false;
  let browserGone = false;
  let outcome = 'ok';
  const navigationHops: string[] = [req.url];
  const navigationRefusal = () => navigationHops.map((u) => guard.refusalFor(u)).find(Boolean);

  try {
    // Refuse before taking a browser slot: a forbidden URL costs nothing but a DNS lookup.
    const verdict = await guard.check(req.url);
    if (!verdict.ok) {
      throw verdict.kind === 'forbidden'
        ? refusalError(req.url, { url: req.url, kind: 'forbidden', reason: verdict.reason, netError: 'net::ERR_BLOCKED_BY_CLIENT' })
        : refusalError(req.url, { url: req.url, kind: 'unreachable', reason: verdict.reason, netError: 'net::ERR_NAME_NOT_RESOLVED' });
    }
    stage = 'waiting for a free page';
    const lease = await deps.pool.lease(job.signal);
    timings.queuedMs = Date.now() - started;
    let proxy: EgressProxy | undefined;
    let context: BrowserContext | undefined;
    // The job races a lifeline that fails at the deadline or when the browser goes away: not every
    // pending Playwright call rejects when the browser dies, and none may outlive the budget.
    let onDisconnect = (): void => undefined;
    let killAt: NodeJS.Timeout | undefined;
    const lifeline = new Promise<never>((_, reject) => {
      onDisconnect = () => {
        browserGone = true;
        reject(new Error('browser has disconnected'));
      };
      killAt = setTimeout(() => {
        deadlineHit = true;
        void context?.close().catch(() => undefined);
        reject(new Error('deadline reached'));
      }, Math.max(0, job.deadline - Date.now() - CLEANUP_MS));
    });
    lifeline.catch(() => undefined);
    lease.browser.once('disconnected', onDisconnect);
    if (!lease.browser.isConnected()) onDisconnect();
    const work = async (): Promise<RenderResult> => {
      stage = 'opening a context';
      const opened = await inSpan('context', async () => {
      proxy = await startEgressProxy(guard);
      const ctx = await lease.browser.newContext({
        viewport: req.viewport,
        deviceScaleFactor: 1,
        serviceWorkers: 'block',
        acceptDownloads: false,
        proxy: { server: proxy.url },
        userAgent: userAgentFor(lease.browser.version()),
        locale: 'en-US',
      });
      context = ctx;
      if (deadlineHit) throw new DeadlineExceededError('render: the budget ran out before the page opened');
      await guardContext(ctx, guard);
      return { ctx, page: await ctx.newPage() };
      });
      const page = opened.page;
      page.on('crash', () => { browserGone = true; });
      // Main-frame navigation hops, to tell the refusal that broke navigation from refused subresources.
      page.on('request', (r) => {
        if (r.isNavigationRequest() && r.frame() === page.mainFrame()) navigationHops.push(r.url());
      });
      const net = trackNetwork(page);
      const main = trackMainResponse(page);
      const wire = recordNetwork(page, {
        textTypes: new Set(req.snapshot ? (req.scripts ? ['stylesheet', 'script'] : ['stylesheet']) : []),
        maxResources: L.resources,
        maxTextChars: L.stylesheetChars,
        maxTotalChars: L.stylesheetsTotalChars,
      });

      stage = 'navigating';
      const reserve = Math.min(RESERVE_MAX_MS, budgetMs * 0.25);
      const navStart = Date.now();
      const response = await inSpan('navigate', () => page.goto(req.url, { waitUntil: 'domcontentloaded', timeout: Math.max(1, job.deadline - Date.now() - CLEANUP_MS) }), { 'url.full': req.url.slice(0, 500) });
      timings.navigationMs = Date.now() - navStart;
      const egress = response?.headers()[EGRESS_HEADER];
      if (response && egress) {
        const refusal = guard.refusalFor(response.url());
        if (refusal) throw refusalError(req.url, refusal);
        throw new TargetUnreachableError(`target unreachable: ${egress} at ${response.url()}`);
      }
      checkContentType(response); // a PDF or an image is not a site: no need to settle it
      const finalUrl = page.url();
      const status = response?.status() ?? 200;

      stage = 'waiting for the page to settle';
      const settleStart = Date.now();
      const workUntil = job.deadline - reserve;
      await inSpan('settle', async () => {
        await settle(page, net, Math.min(workUntil, Date.now() + SETTLE_CAP_MS));
        if (req.snapshot || req.screenshot?.fullPage) {
          stage = 'scrolling for lazy content';
          await scrollThrough(page, net, Math.min(workUntil, Date.now() + SETTLE_CAP_MS));
        }
      });
      timings.settleMs = Date.now() - settleStart;
      deps.metrics.pageLoad.record(Date.now() - navStart);
      // Consent banners go first: neither the wall check, the snapshot nor the screenshot may see them.
      stage = 'hiding overlays';
      await hideOverlays(page);
      stage = 'checking that the page is the site';
      await inSpan('walls', () => checkWall(page, main.latest(response), status));

      const collectStart = Date.now();
      let doc: ReturnType<typeof collectDocument> | undefined;
      if (req.snapshot) {
        stage = 'collecting the document';
        doc = await inSpan('collect.document', () => runInPage(page, collectDocument, {
          htmlChars: L.htmlChars, metaTags: L.metaTags, linkTags: L.linkTags, jsonLdBlocks: L.jsonLdBlocks, jsonLdChars: L.jsonLdChars, urlChars: L.urlChars,
          visibleTextChars: L.visibleTextChars, regionTextChars: L.regionTextChars, headings: L.headings, navLabels: L.navLabels,
          stylesheets: L.stylesheets, scripts: L.scripts, scriptChars: L.scriptChars, stylesheetChars: L.stylesheetChars, withScripts: req.scripts,
        }));
      }
      let elements: ReturnType<typeof collectElements> | undefined;
      let styles: ReturnType<typeof collectStyles> | undefined;
      if (req.snapshot) {
        stage = 'collecting elements and styles';
        elements = await inSpan('collect.elements', () => runInPage(page, collectElements, { anchors: L.anchors, anchorTextChars: L.anchorTextChars, images: L.images, svgs: L.svgs, svgMarkupChars: L.svgMarkupChars, urlChars: L.urlChars }));
        styles = await inSpan('collect.styles', async () => {
          const sheetTexts = await wire.texts(Math.min(workUntil, Date.now() + 2_000));
          const extraVariableNames = [...new Set([...sheetTexts.values()].flatMap((t) => [...t.matchAll(/(--[\w-]+)\s*:/g)].map((m) => m[1]!)))].slice(0, 2000);
          return runInPage(page, collectStyles, { colorSamples: L.colorSamples, fontSamples: L.fontSamples, maxElements: 15_000, extraVariableNames });
        });
      }
      timings.collectMs = Date.now() - collectStart;

      const shotStart = Date.now();
      let capture: Capture | undefined;
      let screenshot: StoredScreenshot | null = null;
      if (req.screenshot) {
        stage = 'taking the screenshot';
        const shot = req.screenshot;
        const captured = await inSpan('screenshot', () => capturePage(page, { ...shot, viewport: req.viewport, maxPixels: deps.screenshotMaxPixels, timeoutMs: job.deadline - Date.now() - CLEANUP_MS }), { format: shot.format, full_page: shot.fullPage });
        capture = captured;
        stage = 'storing the screenshot';
        const url = await inSpan('store', () => deps.store.put(screenshotKey(req.requestId, captured.format, captured.capturedAt), captured.body, captured.contentType), { bytes: captured.body.length });
        screenshot = {
          url, format: capture.format, width: capture.width, height: capture.height, fullPage: req.screenshot.fullPage, clipped: capture.clipped,
          capturedAt: capture.capturedAt.toISOString(), bytes: capture.body.length,
        };
      }

      let snapshot: Snapshot | null = null;
      if (req.snapshot && doc && elements && styles) {
        let thumbnail = null;
        const logoRasters: LogoRaster[] = [];
        let siteIcons: SiteIconLookup | undefined;
        if (req.visuals) {
          stage = 'rendering visuals';
          const found = { images: elements.images, svgs: elements.svgs, doc };
          await inSpan('visuals', async () => {
            const base = capture && capture.format !== 'webp' ? capture.body : await page.screenshot({ type: 'png', timeout: Math.max(1, job.deadline - Date.now() - CLEANUP_MS) });
            thumbnail = await thumbnailOf(base, req.viewport);
            // Logos: the shared ranking (the brand analyzer's own) decides which are rasterised.
            const until = Math.min(workUntil + reserve / 2, job.deadline - CLEANUP_MS);
            const icons = await lookUpSiteIcons(page, found.doc.links, finalUrl, until);
            siteIcons = icons;
            const { doc: d } = found;
            const facts = { finalUrl: finalUrl.slice(0, L.urlChars), title: d.title, meta: d.meta, links: d.links, jsonLd: d.jsonLd, html: d.html, images: found.images, svgs: found.svgs, viewport: d.viewport, resources: wire.resources().list, siteIcons: icons };
            logoRasters.push(...(await rasterizeLogos(page, facts, until)));
          });
        }
        stage = 'assembling the snapshot';
        const textsUntil = Math.min(job.deadline - CLEANUP_MS, Date.now() + 1_000);
        const texts = await wire.texts(textsUntil);
        const truncated = new Set([...doc.truncated, ...elements.truncated, ...styles.truncated]);
        const stylesheets = assembleSources(doc.styleSources, texts, wire.textOrder(), /\.css(\?|$)/i, L.stylesheets, L.stylesheetChars, L.stylesheetsTotalChars, 'stylesheets', truncated);
        const scripts = req.scripts ? assembleSources(doc.scriptSources, texts, [], null, L.scripts, L.scriptChars, L.scriptsTotalChars, 'scripts', truncated) : [];
        const resources = wire.resources();
        if (resources.truncated) truncated.add('resources');
        snapshot = {
          requestedUrl: req.url.slice(0, L.urlChars),
          finalUrl: finalUrl.slice(0, L.urlChars),
          status,
          title: doc.title,
          lang: doc.lang,
          html: doc.html,
          meta: doc.meta,
          links: doc.links,
          jsonLd: doc.jsonLd,
          stylesheets,
          scripts,
          anchors: elements.anchors,
          images: elements.images,
          svgs: elements.svgs,
          text: doc.text,
          styles: { colors: styles.colors as Snapshot['styles']['colors'], fonts: styles.fonts as Snapshot['styles']['fonts'], rootVariables: styles.rootVariables },
          resources: resources.list,
          thumbnail,
          logoRasters,
          ...(siteIcons ? { siteIcons } : {}),
          viewport: doc.viewport,
          documentSize: doc.documentSize,
          truncated: [...truncated],
        };
      }
      timings.screenshotMs = Date.now() - shotStart;
      timings.totalMs = Date.now() - started;
      return { requestedUrl: req.url, finalUrl, status, screenshot, snapshot, timings };
    };
    try {
      const running = work();
      running.catch(() => undefined); // if the lifeline wins, the abandoned work's failure is expected
      const result = await Promise.race([running, lifeline]);
      job.log.debug({ url: req.url, finalUrl: result.finalUrl, status: result.status, timings: result.timings }, 'page rendered');
      return result;
    } catch (err) {
      throw toRenderError(err, { url: req.url, stage, budgetMs, deadlineHit, browserGone, refusal: stage === 'navigating' ? navigationRefusal() : undefined });
    } finally {
      clearTimeout(killAt);
      lease.browser.off('disconnected', onDisconnect);
      const cleanup = async (): Promise<void> => {
        await boundedCleanup(context?.close());
        await boundedCleanup(proxy?.close());
        lease.release(); // only now: the slot counts the context until it is really gone
      };
      // The answer never waits for cleanup (closing a context costs 10-45 ms); the slot stays taken
      // until the context is gone, so the pool's bound on contexts holds.
      void cleanup();
    }
  } catch (err) {
    const e = toRenderError(err, { url: req.url, stage, budgetMs, deadlineHit, browserGone, refusal: undefined }) as ServiceError;
    outcome = e.code;
    throw e;
  } finally {
    deps.metrics.outcomes.add(1, { outcome });
  }
}

/** Cleanup of a dead browser's context can hang; never let it hold the slot for long. */
function boundedCleanup(p: Promise<unknown> | undefined, ms = 2_000): Promise<void> {
  if (!p) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    p.then(() => undefined, () => undefined).finally(() => {
      clearTimeout(t);
      resolve();
    });
  });
}

/** External sources get their text from the network log; sheets only seen on the wire (@import) follow. */
function assembleSources(
  refs: Array<{ url: string | null; text: string | null }>,
  texts: Map<string, string>,
  wireOrder: string[],
  wireOnly: RegExp | null,
  maxItems: number,
  maxChars: number,
  maxTotal: number,
  name: string,
  truncated: Set<string>,
): SourceText[] {
  const out: SourceText[] = [];
  const seen = new Set<string>();
  let total = 0;
  const push = (url: string | null, text: string | undefined | null): void => {
    if (text == null) return;
    if (out.length >= maxItems) return void truncated.add(name);
    let t = text;
    if (t.length >= maxChars) truncated.add(name);
    t = t.slice(0, Math.min(maxChars, maxTotal - total));
    if (t.length < text.length) truncated.add(name);
    if (!t && text) return;
    total += t.length;
    out.push({ url, text: t });
  };
  for (const ref of refs) {
    if (ref.url) {
      seen.add(ref.url);
      push(ref.url, texts.get(ref.url));
    } else push(null, ref.text);
  }
  if (wireOnly) for (const url of wireOrder) if (!seen.has(url) && texts.has(url)) push(url, texts.get(url));
  return out;
}
