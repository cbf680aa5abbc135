/** Batch items, their duration, batches and webhook calls reach a registered MeterProvider. */
import { createServer, type Server } from 'node:http';
import { metrics } from '@opentelemetry/api';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TargetUnreachableError } from '@enrich/shared/errors';
import { startNatsServer, type NatsServerHandle } from '../../../../test/support/nats-server.ts';
import { fakeRenderResult, serveFakes, startEdge, type EdgeHarness } from '../../../../test/support/edge-harness.ts';

class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const reader = new CollectingReader();
let nats: NatsServerHandle;
let h: EdgeHarness;
let fakes: ReturnType<typeof serveFakes>;
let hooks: Server;
let hookUrl: string;

beforeAll(async () => {
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  nats = await startNatsServer();
  hooks = createServer((_req, res) => res.writeHead(204).end());
  await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(hooks.address() as { port: number }).port}/hook`;
  h = await startEdge(nats.url, { allowPrivateTargets: ['127.0.0.2/32', '127.0.0.1/32'] });
  fakes = serveFakes(h.nc, {
    render: async (req) => {
      if (req.url.includes('fail')) throw new TargetUnreachableError('net::ERR_CONNECTION_REFUSED');
      return fakeRenderResult(req);
    },
  });
});
afterAll(async () => {
  await fakes?.stop();
  await h?.close();
  await new Promise((r) => hooks?.close(r));
  await nats?.stop();
});

it('counts batch items by outcome, their duration, the batch and its webhook', async () => {
  const { key } = await h.createKey({ credits: 10 });
  const res = await h.app.inject({
    method: 'POST',
    url: '/batch',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    payload: JSON.stringify({
      endpoint: 'classify',
      items: [{ url: 'https://a.test/1' }, { url: 'https://a.test/fail' }, { url: 'https://a.test/2' }],
      webhook: hookUrl,
    }),
  });
  const { id } = (res.json() as { data: { id: string } }).data;
  const end = Date.now() + 20_000;
  for (;;) {
    const page = (await h.app.inject({ url: `/batch/${id}`, headers: { 'x-api-key': key } })).json() as {
      data: { status: string; webhook: { state: string } };
    };
    if (page.data.webhook.state === 'delivered') break;
    if (Date.now() > end) throw new Error(`batch ${JSON.stringify(page.data)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const { resourceMetrics } = await reader.collect();
  const all = resourceMetrics.scopeMetrics.filter((s) => s.scope.name === 'edge').flatMap((s) => s.metrics);
  const points = (name: string) => all.find((m) => m.descriptor.name === name)?.dataPoints ?? [];
  const sum = (name: string, attrs: Record<string, unknown>) =>
    points(name)
      .filter((p) => Object.entries(attrs).every(([k, v]) => p.attributes[k] === v))
      .reduce((s, p) => s + (p.value as number), 0);
  expect(sum('edge.batch.items', { endpoint: 'classify', outcome: 'succeeded' })).toBe(2);
  expect(sum('edge.batch.items', { endpoint: 'classify', outcome: 'failed' })).toBe(1);
  expect(sum('edge.batch.batches', { event: 'submitted' })).toBe(1);
  expect(sum('edge.batch.batches', { event: 'done' })).toBe(1);
  expect(sum('edge.batch.webhooks', { outcome: 'delivered' })).toBe(1);
  expect(sum('edge.batch.items.running', {})).toBe(0);
  expect(sum('edge.credits.charged', { endpoint: 'classify' })).toBe(2);
  expect(points('edge.batch.item.duration').some((p) => p.attributes.endpoint === 'classify')).toBe(true);
});
