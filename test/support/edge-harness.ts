/**
 * For the edge's tests: a built app (inject, or listening) on a real NATS server and a fresh KV
 * store, plus contract-valid stand-ins for the renderer and the analyzers served over real NATS
 * with the shared `serve`, so every edge path (success, credits, refunds, errors) runs for real
 * except the browser. Not imported by the service.
 */
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { FastifyInstance } from 'fastify';
import {
  ANALYZE_BRAND,
  ANALYZE_CLASSIFY,
  ANALYZE_COMPANY,
  RENDER_PAGE,
  type BrandData,
  type BrandRequest,
  type Classification,
  type CompanyReply,
  type CompanyRequest,
  type RenderRequest,
  type RenderResult,
} from '@enrich/shared/contracts';
import { serve, storedByRef, withSnapshots, type HandlerContext, type Served } from '@enrich/shared/nats';
import { createLogger } from '@enrich/shared/runtime';
import { snapshotFromHtml } from './snapshot-from-html.ts';
import { buildApp } from '../../services/edge/src/app.ts';
import { openResultCache, type ResultCache } from '../../services/edge/src/cache/cache.ts';
import { generateApiKey } from '../../services/edge/src/auth/api-keys.ts';
import type { EdgeConfig } from '../../services/edge/src/config.ts';
import { guardStore } from '../../services/edge/src/store/guard.ts';
import { KvStore } from '../../services/edge/src/store/kv.ts';
import type { ApiKeyRecord, Store } from '../../services/edge/src/store/port.ts';

export const log = createLogger('edge-test', 'silent');

export function testConfig(over: Partial<EdgeConfig> = {}): EdgeConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    natsUrl: 'nats://unused',
    logLevel: 'silent',
    store: { kind: 'kv', name: `edge_${randomUUID().slice(0, 8)}` },
    requestBudgetMs: 10_000,
    trustProxy: 0,
    ipRateLimitPerMin: 100_000,
    ipv6Prefix: 64,
    usageRetentionMs: 90 * 86_400_000,
    ledgerRetentionMs: 7 * 86_400_000,
    defaultKeyRateLimit: 60,
    reservationTtlMs: 20_000,
    sweepIntervalMs: 10_000,
    // The fixture sites of the e2e suites (as the renderer harness allows them).
    allowPrivateTargets: ['127.0.0.2/32'],
    screenshotDir: '/nonexistent',
    assetsBaseUrl: undefined,
    // Off unless a test asks for it: the contract tests count renders per request.
    cache: { enabled: false, maxAgeS: 86_400, maxBytes: 64 * 1_048_576, maxEntries: 10_000, maxEntryBytes: 524_288 },
    ...over,
  };
}

export interface EdgeHarness {
  app: FastifyInstance;
  nc: NatsConnection;
  store: Store;
  config: EdgeConfig;
  /** The result cache, when `cache.enabled` was asked for. */
  cache: ResultCache | null;
  createKey(opts?: { credits?: number; rateLimit?: number; name?: string }): Promise<{ key: string; id: string }>;
  getKey(id: string): Promise<ApiKeyRecord>;
  close(): Promise<void>;
}

/**
 * An app on `natsUrl`; pass `storeName` to share one store between several app instances.
 * `wrapStore` puts a fault in front of the real store (a write that fails once, as a NATS cut would).
 */
export async function startEdge(
  natsUrl: string,
  over: Partial<EdgeConfig> = {},
  opts: { now?: () => number; wrapStore?: (store: Store) => Store } = {},
): Promise<EdgeHarness> {
  const config = testConfig(over);
  const nc = await connect({ servers: natsUrl });
  const raw = new KvStore({ nc, name: config.store.name, retention: { usageMs: config.usageRetentionMs, ledgerMs: config.ledgerRetentionMs } });
  await raw.init();
  const store = opts.wrapStore ? opts.wrapStore(guardStore(raw)) : guardStore(raw);
  const cache = await openResultCache(config, nc, log);
  await cache?.init();
  const app = await buildApp({ config, nc, store, log, cache, ...(opts.now ? { now: opts.now } : {}) });
  await app.ready();
  return {
    app,
    nc,
    store,
    config,
    cache,
    async createKey(opts = {}) {
      const gen = generateApiKey();
      await store.createKey({
        id: gen.id,
        name: opts.name ?? 'test customer',
        hash: gen.hash,
        credits_limit: opts.credits ?? 1000,
        rate_limit: opts.rateLimit ?? 1000,
      });
      return { key: gen.plaintext, id: gen.id };
    },
    async getKey(id) {
      const k = await store.getKey(id);
      if (!k) throw new Error(`key ${id} vanished`);
      return k;
    },
    async close() {
      await app.close();
      await nc.close();
    },
  };
}

export const FIXTURE_HTML = `<!doctype html><html lang="en"><head><title>Acme Analytics - dashboards for small teams</title>
<meta name="description" content="Acme Analytics builds dashboards for small teams.">
<link rel="icon" href="/favicon.ico"></head>
<body><header><a href="/"><img src="/logo.svg" alt="Acme logo"></a><nav><a href="/contact">Contact</a></nav></header>
<main><h1>Dashboards for small teams</h1><p>Connect your data and share insights.</p></main>
<footer>Acme Analytics GmbH, Hauptstrasse 1, 10115 Berlin. <a href="mailto:hello@acme.test">hello@acme.test</a></footer></body></html>`;

export interface FakeCalls {
  render: RenderRequest[];
  brand: BrandRequest[];
  company: CompanyRequest[];
  classify: number;
}

export interface FakeOptions {
  /** Replaces the stand-in renderer's behaviour (throw a ServiceError to test a failure). */
  render?: (req: RenderRequest, ctx: HandlerContext) => Promise<RenderResult>;
  brand?: (req: BrandRequest) => Promise<BrandData>;
  /** Whether analyze.company suggests a contact page to follow (when not given extra snapshots). */
  companyFollowUp?: string[];
  /** Only these services are served (default all). */
  only?: Array<'render' | 'brand' | 'company' | 'classify'>;
}

export function fakeRenderResult(req: RenderRequest, finalUrl = req.url): RenderResult {
  return {
    requestedUrl: req.url,
    finalUrl,
    status: 200,
    screenshot: req.screenshot
      ? {
          url: `http://assets.test/assets/${req.requestId}.${req.screenshot.format === 'jpeg' ? 'jpg' : req.screenshot.format}`,
          format: req.screenshot.format,
          width: req.viewport.width,
          height: req.screenshot.fullPage ? 3000 : req.viewport.height,
          fullPage: req.screenshot.fullPage,
          capturedAt: new Date().toISOString(),
          bytes: 12_345,
        }
      : null,
    snapshot: req.snapshot ? snapshotFromHtml(FIXTURE_HTML, finalUrl) : null,
    timings: { queuedMs: 0, navigationMs: 5, settleMs: 1, collectMs: 1, screenshotMs: 1, totalMs: 8 },
  };
}

export function fakeBrand(req: BrandRequest): BrandData {
  const entry = { color: 'rgb(17,34,51)', hex: '#112233', name: 'Midnight Blue', percentage: 60, source: 'logo' as const };
  return {
    colors: {
      brand_colors: [entry],
      screenshot_colors: req.options.screenshotColors ? [{ ...entry, source: 'screenshot' }] : [],
      code_colors: { css: req.options.css ? ['#112233'] : [], html: [], javascript: [] },
    },
    fonts: { families: ['Inter'], google_fonts: ['Inter'], typekit: [] },
    logos: {
      primary: { url: 'https://acme.test/logo.svg', source: 'header', score: 0.9, isSvg: true },
      secondary: [],
      favicon_url: 'https://acme.test/favicon.ico',
      icon_url: null,
      apple_touch_icon: null,
    },
    images: { og_image: '', twitter_image: '', assets: [], screenshot_url: req.screenshotUrl, screenshot_colors: [] },
    social_links: { twitter: null, linkedin: 'https://www.linkedin.com/company/acme', github: null, facebook: null, instagram: null, youtube: null },
  };
}

export function fakeClassification(url: string): Classification {
  return {
    url,
    iab_id: 'IAB19-6',
    iab_parent_id: 'IAB19',
    category: 'Technology & Computing',
    subcategory: 'Computer Software',
    description: 'Acme Analytics builds dashboards for small teams.',
  };
}

/** Serves stand-ins on NATS and records what they were asked. */
export function serveFakes(nc: NatsConnection, opts: FakeOptions = {}): { calls: FakeCalls; stop(): Promise<void> } {
  const calls: FakeCalls = { render: [], brand: [], company: [], classify: 0 };
  const on = (s: 'render' | 'brand' | 'company' | 'classify') => !opts.only || opts.only.includes(s);
  const served: Served[] = [];
  if (on('render')) {
    served.push(
      serve(
        nc,
        RENDER_PAGE,
        async (req, ctx) => {
          calls.render.push(req);
          // As the real renderer: a snapshot asked for by reference is stored and answered as its reference.
          return storedByRef(nc, req, opts.render ? await opts.render(req, ctx) : fakeRenderResult(req), log);
        },
        { log },
      ),
    );
  }
  if (on('brand')) {
    served.push(
      serve(
        nc,
        ANALYZE_BRAND,
        async (m) => {
          const req = await withSnapshots(nc, m);
          calls.brand.push(req);
          return opts.brand ? opts.brand(req) : fakeBrand(req);
        },
        { log },
      ),
    );
  }
  if (on('company')) {
    served.push(
      serve(
        nc,
        ANALYZE_COMPANY,
        async (m): Promise<CompanyReply> => {
          const req = await withSnapshots(nc, m);
          calls.company.push(req);
          const pages = [req.snapshot.finalUrl, ...req.extraSnapshots.map((s) => s.finalUrl)];
          return {
            data: {
              name: 'Acme Analytics GmbH',
              brand_name: 'Acme Analytics',
              emails: ['hello@acme.test'],
              addresses: req.extraSnapshots.length > 0 ? ['Hauptstrasse 1, 10115 Berlin'] : [],
              sources: ['footer'],
              confidence: 0.7,
              pages,
            },
            followUp: req.extraSnapshots.length > 0 ? [] : (opts.companyFollowUp ?? []),
          };
        },
        { log },
      ),
    );
  }
  if (on('classify')) {
    served.push(
      serve(
        nc,
        ANALYZE_CLASSIFY,
        async (m) => {
          calls.classify += 1;
          return fakeClassification((await withSnapshots(nc, m)).snapshot.finalUrl);
        },
        { log },
      ),
    );
  }
  return {
    calls,
    async stop() {
      await Promise.all(served.map((s) => s.stop()));
    },
  };
}
