/** The edge's RED metrics reach a registered MeterProvider (registered before the first request, as the runtime does). */
import { metrics } from '@opentelemetry/api';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../../../test/support/nats-server.ts';
import { serveFakes, startEdge, type EdgeHarness } from '../../../test/support/edge-harness.ts';

class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const reader = new CollectingReader();
let nats: NatsServerHandle;
let h: EdgeHarness;
let fakes: ReturnType<typeof serveFakes>;

beforeAll(async () => {
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  nats = await startNatsServer();
  h = await startEdge(nats.url);
  fakes = serveFakes(h.nc);
});
afterAll(async () => {
  await fakes?.stop();
  await h?.close();
  await nats?.stop();
});

it('counts requests, errors, durations, credits charged and rate-limit rejections per endpoint', async () => {
  const { key } = await h.createKey({ credits: 10, rateLimit: 2 });
  const get = (url: string) => h.app.inject({ url, headers: { 'x-api-key': key } });
  expect((await get('/enrich?url=acme.test')).statusCode).toBe(200);
  expect((await get('/classify?url=ftp://x')).statusCode).toBe(400);
  expect((await get('/classify?url=acme.test')).statusCode).toBe(429);
  const { resourceMetrics } = await reader.collect();
  const all = resourceMetrics.scopeMetrics.filter((s) => s.scope.name === 'edge').flatMap((s) => s.metrics);
  const points = (name: string) => all.find((m) => m.descriptor.name === name)?.dataPoints ?? [];
  const sum = (name: string, attrs: Record<string, unknown>) =>
    points(name)
      .filter((p) => Object.entries(attrs).every(([k, v]) => p.attributes[k] === v))
      .reduce((s, p) => s + (p.value as number), 0);
  expect(sum('edge.requests', { endpoint: 'enrich', status: 200 })).toBe(1);
  expect(sum('edge.request.errors', { endpoint: 'classify', status: 400 })).toBe(1);
  expect(sum('edge.credits.charged', { endpoint: 'enrich' })).toBe(3);
  expect(sum('edge.ratelimit.rejections', { scope: 'key' })).toBe(1);
  expect(points('edge.request.duration').some((p) => p.attributes.endpoint === 'enrich')).toBe(true);
});
