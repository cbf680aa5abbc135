/**
 * The result cache and the single flight with the real renderer (Chromium) and analyzers, two
 * listening edge instances on one KV store, and a fixture site that counts the requests it serves:
 * a cached answer or a shared render never reaches the site again.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnrichQuerySchema, EnrichResponseSchema, ScreenshotResponseSchema } from '@enrich/shared/contracts';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.ts';
import { startEdge, log, type EdgeHarness } from '../support/edge-harness.ts';
import { normalizeTargetUrl, parseQuery } from '../../services/edge/src/params.ts';
import { startAnalyzers } from '../support/analyzers.ts';
import { startWallSites, type WallSites } from '../support/wall-sites.ts';
import { startRenderer } from '../../services/renderer/src/service.ts';
import { loadRendererConfig } from '../../services/renderer/src/config.ts';

let nats: NatsServerHandle;
let sites: WallSites;
let a: EdgeHarness;
let b: EdgeHarness;
const bases: string[] = [];
let renderer: { stop(): Promise<void> };
let analyzers: { stop(): Promise<void> };

beforeAll(async () => {
  nats = await startNatsServer();
  sites = await startWallSites();
  const screenshotDir = mkdtempSync(join(tmpdir(), 'cache-shots-'));
  const store = { kind: 'kv' as const, name: `cache_${randomUUID().slice(0, 8)}` };
  const cache = { enabled: true, maxAgeS: 86_400, maxBytes: 64 * 1_048_576, maxEntries: 10_000, maxEntryBytes: 524_288 };
  a = await startEdge(nats.url, { store, screenshotDir, requestBudgetMs: 25_000, cache });
  b = await startEdge(nats.url, { store, screenshotDir, requestBudgetMs: 25_000, cache });
  bases.push(await a.app.listen({ port: 0, host: '127.0.0.1' }), await b.app.listen({ port: 0, host: '127.0.0.1' }));
  const config = loadRendererConfig({
    ALLOW_PRIVATE_TARGETS: '127.0.0.2/32',
    RESOLVE_OVERRIDES: '*=127.0.0.2',
    SCREENSHOT_DIR: screenshotDir,
    ASSETS_BASE_URL: `${bases[0]}/assets`,
    RENDER_CONCURRENCY: '2',
    RENDER_QUEUE: '16',
  });
  renderer = await startRenderer({ nc: a.nc, config, log });
  analyzers = await startAnalyzers(a.nc, log);
});

afterAll(async () => {
  await analyzers?.stop();
  await renderer?.stop();
  await a?.close();
  await b?.close();
  await sites?.close();
  await nats?.stop();
});

async function call(path: string, key: string, base = bases[0]!) {
  const res = await fetch(`${base}${path}`, { headers: { 'x-api-key': key } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as { success: boolean; error?: string } };
}

describe('result cache with the real renderer', () => {
  it('a second identical /enrich within maxAge is a HIT with identical data; maxAge=0 renders again', async () => {
    const { key, id } = await a.createKey({ credits: 100 });
    const path = '/walls/ok-domain-broker';
    const q = `/enrich?url=${encodeURIComponent(sites.origin + path)}`;
    const first = await call(q, key);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect(sites.hits(path)).toBe(1);

    const second = await call(`${q}&maxAge=3600`, key, bases[1]);
    expect(second.status).toBe(200);
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(second.headers.get('age')).toMatch(/^\d+$/);
    expect(EnrichResponseSchema.parse(second.body).data).toEqual(EnrichResponseSchema.parse(first.body).data);
    expect(sites.hits(path)).toBe(1);
    // The cached screenshot is the stored one, still served.
    expect((await fetch(EnrichResponseSchema.parse(second.body).data.images.screenshot_url)).status).toBe(200);

    const fresh = await call(`${q}&maxAge=0`, key);
    expect(fresh.headers.get('x-cache')).toBe('MISS');
    expect(sites.hits(path)).toBe(2);
    expect((await a.getKey(id)).credits_used).toBe(9);
    const url = normalizeTargetUrl(sites.origin + path);
    expect((await a.cache!.peek('enrich', url, parseQuery(EnrichQuerySchema, { url })))?.storedAt).toBeGreaterThan(Date.now() - 30_000);
  });

  it('10 concurrent identical /screenshot requests over two edges make the site serve its page once', async () => {
    const { key, id } = await a.createKey({ credits: 100 });
    const path = '/walls/slow';
    const q = `/screenshot?url=${encodeURIComponent(`${sites.origin}${path}?ms=300`)}&width=800&height=600`;
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => call(q, key, bases[i % 2])));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(sites.hits(path)).toBe(1);
    const shots = new Set(results.map((r) => ScreenshotResponseSchema.parse(r.body).data.screenshot_url));
    expect(shots.size).toBe(1);
    expect((await a.getKey(id)).credits_used).toBe(10);
  });
});
