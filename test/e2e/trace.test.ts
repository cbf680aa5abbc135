/**
 * One HTTP request is one trace across services: the edge, the real renderer (Chromium) and the real
 * analyzers run in this process over a private NATS, every span lands in one in-memory exporter,
 * and the parent→child edges of a /classify are checked one by one; an /enrich's spans show company,
 * classifier and brand working while the page is still captured.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { startTestTelemetry } from '@enrich/shared/telemetry';
import { createLogger } from '@enrich/shared/runtime';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.ts';
import { serveStatic, type StaticSite } from '../../deploy/local/static-site.ts';
import { REPO_ROOT } from '../../deploy/local/stack.ts';
import { startEdge, type EdgeHarness } from '../support/edge-harness.ts';
import { startRenderer } from '../../services/renderer/src/service.ts';
import { loadRendererConfig } from '../../services/renderer/src/config.ts';
import { startAnalyzers } from '../support/analyzers.ts';

const telemetry = startTestTelemetry('trace-test');
const log = createLogger('trace-test', 'silent');

let nats: NatsServerHandle;
let site: StaticSite;
let edge: EdgeHarness;
let base: string;
const stops: Array<{ stop(): Promise<void> }> = [];

beforeAll(async () => {
  nats = await startNatsServer();
  site = await serveStatic(join(REPO_ROOT, 'deploy/local/demo-site'), { host: '127.0.0.2' });
  const screenshotDir = mkdtempSync(join(tmpdir(), 'trace-shots-'));
  edge = await startEdge(nats.url, { store: { kind: 'kv', name: `trace_${randomUUID().slice(0, 8)}` }, screenshotDir });
  base = await edge.app.listen({ port: 0, host: '127.0.0.1' });
  stops.push(
    await startRenderer({
      nc: edge.nc,
      config: loadRendererConfig({ ALLOW_PRIVATE_TARGETS: '127.0.0.2/32', SCREENSHOT_DIR: screenshotDir, ASSETS_BASE_URL: `${base}/assets` }),
      log,
    }),
  );
  stops.push(await startAnalyzers(edge.nc, log));
}, 120_000);

afterAll(async () => {
  for (const s of stops.reverse()) await s.stop();
  await edge?.close();
  await site?.close();
  await nats?.stop();
});

describe('distributed trace of one request', () => {
  it('links edge → render.page → renderer and edge → analyze.classify → classifier in one trace', async () => {
    const { key } = await edge.createKey({ credits: 10 });
    telemetry.exporter.reset();
    // A client's own trace context is continued, so a caller can find our spans under its trace.
    const clientTraceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await fetch(`${base}/classify?url=${encodeURIComponent(site.origin + '/')}`, {
      headers: { 'x-api-key': key, traceparent: `00-${clientTraceId}-00f067aa0ba902b7-01` },
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');
    await telemetry.forceFlush();
    const spans = telemetry.exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === clientTraceId);
    const byName = (name: string): ReadableSpan => {
      const found = spans.find((s) => s.name === name);
      expect(found, `span "${name}" in ${spans.map((s) => s.name).join(', ')}`).toBeDefined();
      return found!;
    };
    const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;

    const http = byName('GET /classify');
    expect(parentOf(http)).toBe('00f067aa0ba902b7');
    expect(http.attributes['enrich.request_id']).toBe(requestId);
    expect(http.attributes['http.response.status_code']).toBe(200);

    const renderCall = byName('render.page request');
    const renderWork = byName('render.page process');
    const classifyCall = byName('analyze.classify request');
    const classifyWork = byName('analyze.classify process');
    expect(parentOf(renderCall)).toBe(http.spanContext().spanId);
    expect(parentOf(renderWork)).toBe(renderCall.spanContext().spanId);
    expect(parentOf(classifyCall)).toBe(http.spanContext().spanId);
    expect(parentOf(classifyWork)).toBe(classifyCall.spanContext().spanId);
    // Inside the renderer, each phase of the page load is a child span, so the trace shows where time went.
    for (const phase of ['render.context', 'render.navigate', 'render.settle', 'render.collect.document']) {
      expect(parentOf(byName(phase)), phase).toBe(renderWork.spanContext().spanId);
    }
    // The classifier reads the document alone: the render collects no elements or styles for it, and says so.
    expect(spans.filter((s) => s.name === 'render.collect.elements' || s.name === 'render.collect.styles')).toEqual([]);
    expect(String(renderWork.attributes['render.skipped']).split(',')).toEqual(expect.arrayContaining(['elements', 'styles', 'logos', 'thumbnail']));
    // The classifier only starts once the page is rendered. The render call's span is ended in the
    // same tick as its reply is handed on, so the two instants can be a fraction of a millisecond
    // apart either way; a classifier started before the render would be ahead by the whole render.
    const t = (hr: [number, number]) => hr[0] * 1e9 + hr[1];
    expect(t(classifyCall.startTime)).toBeGreaterThanOrEqual(t(renderCall.endTime) - 5e6);
  });

  it('/enrich: company and classifier start from the page part handed out before the styles and the capture, brand from the visuals handed out during it; same answers as alone', async () => {
    const { key } = await edge.createKey({ credits: 20 });
    const page = encodeURIComponent(site.origin + '/');
    const get = async (path: string): Promise<{ requestId: string; data: Record<string, unknown> }> => {
      const res = await fetch(`${base}${path}?url=${page}`, { headers: { 'x-api-key': key } });
      expect(res.status, path).toBe(200);
      return { requestId: res.headers.get('x-request-id')!, data: ((await res.json()) as { data: Record<string, unknown> }).data };
    };
    telemetry.exporter.reset();
    const enrich = await get('/enrich');
    await telemetry.forceFlush();
    const all = telemetry.exporter.getFinishedSpans();
    const traceId = all.find((s) => s.name === 'GET /enrich' && s.attributes['enrich.request_id'] === enrich.requestId)!.spanContext().traceId;
    const spans = all.filter((s) => s.spanContext().traceId === traceId);
    const one = (name: string): ReadableSpan => {
      const found = spans.filter((s) => s.name === name);
      expect(found, `one span "${name}" in ${spans.map((s) => s.name).join(', ')}`).toHaveLength(1);
      return found[0]!;
    };
    const t = (hr: [number, number]) => hr[0] * 1e9 + hr[1];
    const renderEnd = t(one('render.page request').endTime);
    // Started while the renderer still captured the page and rasterised its logos (the old order
    // started them within a fraction of a millisecond after the render's reply).
    expect(t(one('analyze.company request').startTime)).toBeLessThan(renderEnd - 5e6);
    expect(t(one('analyze.classify request').startTime)).toBeLessThan(renderEnd - 5e6);
    // The demo page's logo is an <img> read from its file while the page is captured, and no
    // thumbnail is asked for: the visuals are handed out before the reply (during the capture unless
    // the decode is slower), stored once, and brand starts from them, not from the reply.
    expect(one('render.logos').attributes['logos.begun_before_capture']).toBe(true);
    expect(t(one('analyze.brand request').startTime)).toBeLessThan(renderEnd);
    // The page part goes out before the styles, which only brand reads, are collected; they travel with the visuals.
    const pagePartStored = spans.find((s) => s.name === 'render.store_snapshot' && s.attributes['part'] === 'page')!;
    expect(t(pagePartStored.startTime)).toBeLessThanOrEqual(t(one('render.collect.styles').startTime));
    const stored = spans.filter((s) => s.name === 'render.store_snapshot').map((s) => `${s.attributes['part']}${s.attributes['early'] ? ' (early)' : ''}`);
    expect(stored.sort()).toEqual(['page', 'visuals (early)']);

    // The same evidence gives the same answers as the endpoints alone (brand reads the visuals laid
    // over the page part: its logos and colours come from the rasters and the thumbnail).
    const [brand, company, classification] = [(await get('/brand')).data, (await get('/company')).data, (await get('/classify')).data];
    for (const field of ['logos', 'colors', 'fonts', 'social_links']) expect(enrich.data[field], field).toEqual(brand[field]);
    expect((brand['logos'] as { primary: unknown }).primary).not.toBeNull();
    const { domain: _d, url: _u, ...companyData } = company;
    expect(enrich.data['company']).toEqual(companyData);
    expect(enrich.data['classification']).toEqual(classification);
  });
});
