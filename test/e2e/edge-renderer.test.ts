/**
 * The edge with the real renderer (Chromium, in-process) over a private NATS, a real listening
 * HTTP server, fixture sites on 127.0.0.2, and the real analyzers. This suite is about the edge's
 * side of rendering (screenshots stored and served, SSRF refusals, unreachable targets, the request
 * budget, credits under concurrency with a real browser behind).
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnrichResponseSchema, ErrorEnvelopeSchema, ScreenshotResponseSchema } from '@enrich/shared/contracts';
import { freePort, startNatsServer, type NatsServerHandle } from '../support/nats-server.ts';
import { startEdge, log, type EdgeHarness } from '../support/edge-harness.ts';
import { startAnalyzers } from '../support/analyzers.ts';
import { startRenderer } from '../../services/renderer/src/service.ts';
import { loadRendererConfig } from '../../services/renderer/src/config.ts';

const PAGE = `<!doctype html><html><head><title>Fixture Co</title></head><body style="background:#0a4">
<header><h1>Fixture Co</h1></header><footer>Fixture Co Ltd, contact@fixture.test</footer></body></html>`;

let nats: NatsServerHandle;
let site: Server;
let siteBase: string;
let closedPortUrl: string;
let edge: EdgeHarness;
let tight: EdgeHarness;
let edgeBase: string;
let renderer: { stop(): Promise<void> };
let analyzers: { stop(): Promise<void> };

beforeAll(async () => {
  nats = await startNatsServer();
  site = createServer((req, res) => {
    if (req.url === '/hang') return; // never answers: a page that never finishes loading
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.2', r));
  siteBase = `http://127.0.0.2:${(site.address() as { port: number }).port}`;
  closedPortUrl = `http://127.0.0.2:${await freePort('127.0.0.2')}/`;

  const screenshotDir = mkdtempSync(join(tmpdir(), 'edge-e2e-shots-'));
  const store = { kind: 'kv' as const, name: `e2e_${randomUUID().slice(0, 8)}` };
  edge = await startEdge(nats.url, { store, screenshotDir, requestBudgetMs: 25_000 });
  edgeBase = await edge.app.listen({ port: 0, host: '127.0.0.1' });
  tight = await startEdge(nats.url, { store, screenshotDir, requestBudgetMs: 2500 });

  const config = loadRendererConfig({
    ALLOW_PRIVATE_TARGETS: '127.0.0.2/32',
    SCREENSHOT_DIR: screenshotDir,
    ASSETS_BASE_URL: `${edgeBase}/assets`,
    RENDER_CONCURRENCY: '2',
    RENDER_QUEUE: '16',
  });
  renderer = await startRenderer({ nc: edge.nc, config, log });
  analyzers = await startAnalyzers(edge.nc, log);
});

afterAll(async () => {
  await analyzers?.stop();
  await renderer?.stop();
  await tight?.close();
  await edge?.close();
  await new Promise((r) => site?.close(r));
  site?.closeAllConnections();
  await nats?.stop();
});

async function call(
  path: string,
  key: string,
  base = edgeBase,
): Promise<{ status: number; headers: Headers; body: { success: boolean; error?: string; data?: unknown } }> {
  const res = await fetch(`${base}${path}`, { headers: { 'x-api-key': key } });
  const body = (await res.json()) as { success: boolean; error?: string };
  if (!body.success) ErrorEnvelopeSchema.parse(body);
  return { status: res.status, headers: res.headers, body };
}

describe('edge + real renderer', () => {
  it('/screenshot stores the image and the edge serves it under /assets with its content type', async () => {
    const { key, id } = await edge.createKey({ credits: 5 });
    const res = await call(`/screenshot?url=${encodeURIComponent(siteBase)}&width=800&height=600&format=png`, key);
    expect(res.status).toBe(200);
    const data = ScreenshotResponseSchema.parse(res.body).data;
    expect(data).toMatchObject({ url: `${siteBase}/`, viewport: { width: 800, height: 600 }, format: 'png', full_page: false, screenshot_clipped: false });
    expect(data.screenshot_url.startsWith(`${edgeBase}/assets/`)).toBe(true);
    const img = await fetch(data.screenshot_url);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await img.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect((await edge.getKey(id)).credits_used).toBe(1);
  });

  it('/enrich renders once and answers the merged object, 3 credits', async () => {
    const { key, id } = await edge.createKey({ credits: 5 });
    const res = await call(`/enrich?url=${encodeURIComponent(siteBase)}`, key);
    expect(res.status).toBe(200);
    const data = EnrichResponseSchema.parse(res.body).data;
    expect(data.domain).toBe('127.0.0.2');
    expect(data.images.screenshot_url).toMatch(/\.jpe?g$/);
    expect(res.headers.get('x-credits-used')).toBe('3');
    expect((await edge.getKey(id)).credits_used).toBe(3);
  });

  it('400 for a loopback target or localhost, saying why without naming an address, nothing charged', async () => {
    const { key, id } = await edge.createKey({ credits: 5 });
    for (const target of ['http://127.0.0.1:9/', 'localhost', `http://localhost:${new URL(siteBase).port}/`]) {
      const res = await call(`/classify?url=${encodeURIComponent(target)}`, key);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/private or loopback address/);
      expect(JSON.stringify(res.body)).not.toContain('127.0.0.1');
    }
    expect((await edge.getKey(id)).credits_used).toBe(0);
  });

  it('502 for a closed port, naming the URL, refunded', async () => {
    const { key, id } = await edge.createKey({ credits: 5 });
    const res = await call(`/brand?url=${encodeURIComponent(closedPortUrl)}`, key);
    expect(res.status).toBe(502);
    expect(res.body.error).toContain('127.0.0.2');
    expect((await edge.getKey(id)).credits_used).toBe(0);
  });

  it('504 when the page never finishes within REQUEST_BUDGET_MS, naming the budget, refunded', async () => {
    const { key, id } = await tight.createKey({ credits: 5 });
    const res = await tight.app.inject({ url: `/screenshot?url=${encodeURIComponent(`${siteBase}/hang`)}`, headers: { 'x-api-key': key } });
    expect(res.statusCode).toBe(504);
    expect(ErrorEnvelopeSchema.parse(res.json()).error).toMatch(/^The request budget of 2500 ms ran out/);
    expect((await tight.getKey(id)).credits_used).toBe(0);
  });

  it('200 simultaneous paid requests with a real browser behind: exactly the affordable number succeed', async () => {
    const { key, id } = await edge.createKey({ credits: 4, rateLimit: 10_000 });
    const results = await Promise.all(Array.from({ length: 200 }, () => call(`/screenshot?url=${encodeURIComponent(siteBase)}&width=320&height=320`, key)));
    const byStatus = (s: number) => results.filter((r) => r.status === s).length;
    expect(byStatus(200)).toBe(4);
    expect(byStatus(402)).toBe(196);
    const k = await edge.getKey(id);
    expect(k.credits_used).toBe(4);
    expect(k.pending).toEqual([]);
  });

  it('/ready is 200 with the renderer up', async () => {
    const res = await fetch(`${edgeBase}/ready`);
    expect(res.status).toBe(200);
  });
});
