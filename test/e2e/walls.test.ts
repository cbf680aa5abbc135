/**
 * Pages that are not the site, through the whole system: a listening edge, the real renderer
 * (Chromium) and the real analyzers over a private NATS, and the wall fixtures on 127.0.0.2.
 * Every wall answers 502 with its own message and costs nothing; the look-alike normal pages
 * (reCAPTCHA on a contact form, an article quoting challenge markup, protected-but-served pages)
 * are enriched as usual.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnrichQuerySchema, EnrichResponseSchema, ErrorEnvelopeSchema, ScreenshotResponseSchema } from '@enrich/shared/contracts';
import { normalizeTargetUrl, parseQuery } from '../../services/edge/src/params.ts';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.ts';
import { startEdge, log, type EdgeHarness } from '../support/edge-harness.ts';
import { startAnalyzers } from '../support/analyzers.ts';
import { startWallSites, WALL_CASES, type WallSites } from '../support/wall-sites.ts';
import { startRenderer } from '../../services/renderer/src/service.ts';
import { loadRendererConfig } from '../../services/renderer/src/config.ts';

let nats: NatsServerHandle;
let sites: WallSites;
let edge: EdgeHarness;
let edgeBase: string;
let renderer: { stop(): Promise<void> };
let analyzers: { stop(): Promise<void> };

beforeAll(async () => {
  nats = await startNatsServer();
  sites = await startWallSites();
  const screenshotDir = mkdtempSync(join(tmpdir(), 'walls-shots-'));
  const cache = { enabled: true, maxAgeS: 86_400, maxBytes: 64 * 1_048_576, maxEntries: 10_000, maxEntryBytes: 524_288 };
  edge = await startEdge(nats.url, { store: { kind: 'kv', name: `walls_${randomUUID().slice(0, 8)}` }, screenshotDir, requestBudgetMs: 25_000, cache });
  edgeBase = await edge.app.listen({ port: 0, host: '127.0.0.1' });
  const config = loadRendererConfig({
    ALLOW_PRIVATE_TARGETS: '127.0.0.2/32',
    // Vendor hosts named in the fixtures' markup resolve to the loopback site; nothing leaves the machine.
    RESOLVE_OVERRIDES: '*=127.0.0.2',
    SCREENSHOT_DIR: screenshotDir,
    ASSETS_BASE_URL: `${edgeBase}/assets`,
    RENDER_CONCURRENCY: '2',
  });
  renderer = await startRenderer({ nc: edge.nc, config, log });
  analyzers = await startAnalyzers(edge.nc, log);
});

afterAll(async () => {
  await analyzers?.stop();
  await renderer?.stop();
  await edge?.close();
  await sites?.close();
  await nats?.stop();
});

async function call(path: string, key: string): Promise<{ status: number; headers: Headers; body: { success: boolean; error?: string } }> {
  const res = await fetch(`${edgeBase}${path}`, { headers: { 'x-api-key': key } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as { success: boolean; error?: string } };
}

const target = (path: string): string => encodeURIComponent(`${sites.origin}${path}`);

describe('pages that are not the site', () => {
  const walls = WALL_CASES.filter((c) => c.expect !== null);

  it.each(walls.map((c) => [c.path, c] as const))('/enrich of %s is a 502 that says what was met, charged nothing, not cached', async (_path, c) => {
    const { key, id } = await edge.createKey({ credits: 10 });
    const hitsBefore = sites.hits(c.path);
    const res = await call(`/enrich?url=${target(c.path)}`, key);
    expect(res.status).toBe(502);
    const envelope = ErrorEnvelopeSchema.parse(res.body);
    expect(envelope.error).toMatch(c.expect!);
    expect(res.headers.get('x-credits-used')).toBeNull();
    const k = await edge.getKey(id);
    expect(k.credits_used).toBe(0);
    expect(k.pending).toEqual([]);
    // The usage log is written after the answer, in batches (usage-log.ts): wait for it.
    let usage = await edge.store.listUsage(id, 10);
    for (let i = 0; i < 100 && usage.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      usage = await edge.store.listUsage(id, 10);
    }
    expect(usage.map((u) => [u.status, u.credits])).toEqual([[502, 0]]);
    const url = normalizeTargetUrl(`${sites.origin}${c.path}`);
    expect(await edge.cache!.peek('enrich', url, parseQuery(EnrichQuerySchema, { url }))).toBeNull();
    // Asked again, the target is asked again: nothing of the wall was kept.
    expect((await call(`/enrich?url=${target(c.path)}`, key)).status).toBe(502);
    expect(sites.hits(c.path) - hitsBefore).toBe(2);
  });

  it.each(['/walls/http-404', '/walls/cloudflare-challenge', '/walls/report.pdf', '/walls/parked-sedo'])(
    '/screenshot of %s is an error, not a picture of it',
    async (path) => {
      const { key, id } = await edge.createKey({ credits: 10 });
      const res = await call(`/screenshot?url=${target(path)}`, key);
      expect(res.status).toBe(502);
      expect(ErrorEnvelopeSchema.parse(res.body).error).toMatch(WALL_CASES.find((c) => c.path === path)!.expect!);
      expect((await edge.getKey(id)).credits_used).toBe(0);
    },
  );

  it('/classify and /company of a challenge page are refused the same way', async () => {
    const { key, id } = await edge.createKey({ credits: 10 });
    for (const endpoint of ['classify', 'company', 'brand']) {
      const res = await call(`/${endpoint}?url=${target('/walls/datadome')}`, key);
      expect(res.status).toBe(502);
      expect(res.body.error).toContain('DataDome');
    }
    expect((await edge.getKey(id)).credits_used).toBe(0);
  });
});

describe('normal pages that only look like walls are enriched', () => {
  const normal = WALL_CASES.filter((c) => c.expect === null);

  it.each(normal.map((c) => [c.path] as const))('/enrich of %s answers 200 and charges 3', async (path) => {
    const { key, id } = await edge.createKey({ credits: 10 });
    const res = await call(`/enrich?url=${target(path)}`, key);
    expect(res.body.error).toBeUndefined();
    expect(res.status).toBe(200);
    const data = EnrichResponseSchema.parse(res.body).data;
    expect(data.url).toBe(`${sites.origin}${path}`);
    expect(res.headers.get('x-credits-used')).toBe('3');
    expect((await edge.getKey(id)).credits_used).toBe(3);
  });

  it('/screenshot of a normal page still works (the checks do not get in the way)', async () => {
    const { key } = await edge.createKey({ credits: 10 });
    const res = await call(`/screenshot?url=${target('/walls/ok-contact-recaptcha')}`, key);
    expect(res.status).toBe(200);
    expect(ScreenshotResponseSchema.parse(res.body).data.url).toBe(`${sites.origin}/walls/ok-contact-recaptcha`);
  });
});
