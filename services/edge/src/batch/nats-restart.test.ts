/**
 * A NATS restart in the middle of a batch (the server stopped and started again on the same port and
 * JetStream directory): the edge reconnects, the items in the work queue are still there, items cut
 * off by the restart are retried, and the batch ends with every item answered once and the key
 * charged exactly the successful items' cost (orphaned reservations of cut-off deliveries refunded).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BatchCreatedResponseSchema, BatchPageResponseSchema, type BatchPage, type RenderRequest } from '@enrich/shared/contracts';
import { startNatsServer, type NatsServerHandle } from '../../../../test/support/nats-server.ts';
import { fakeRenderResult, serveFakes, startEdge, type EdgeHarness } from '../../../../test/support/edge-harness.ts';
import { batchConfigOf } from './config.ts';

const storeDir = mkdtempSync(join(tmpdir(), 'batch-nats-restart-'));
let nats: NatsServerHandle;
let edge: EdgeHarness;
let fakes: ReturnType<typeof serveFakes>;

beforeAll(async () => {
  nats = await startNatsServer({ storeDir });
  edge = await startEdge(nats.url, { requestBudgetMs: 3000, batch: { ...batchConfigOf({}), concurrency: 3, keyConcurrency: 3 } });
  fakes = serveFakes(edge.nc, {
    render: async (req: RenderRequest) => {
      await new Promise((r) => setTimeout(r, 150));
      return fakeRenderResult(req);
    },
  });
});
afterAll(async () => {
  await fakes?.stop();
  await edge?.close();
  await nats?.stop();
  rmSync(storeDir, { recursive: true, force: true });
});

async function page(key: string, id: string): Promise<BatchPage> {
  const res = await edge.app.inject({ method: 'GET', url: `/batch/${id}?limit=1000`, headers: { 'x-api-key': key } });
  return BatchPageResponseSchema.parse(res.json()).data;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

it('a batch survives a NATS restart: every item answered once, charged once', { timeout: 180_000 }, async () => {
  const { key, id } = await edge.createKey({ credits: 1000 });
  const res = await edge.app.inject({
    method: 'POST',
    url: '/batch',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    payload: JSON.stringify({ endpoint: 'classify', items: Array.from({ length: 40 }, (_, i) => ({ url: `https://n.test/${i}` })) }),
  });
  const created = BatchCreatedResponseSchema.parse(res.json()).data;
  await until('10 answers', async () => ((await page(key, created.id)).counts.succeeded >= 10 ? true : undefined), 60_000);

  await nats.stop();
  nats = await startNatsServer({ storeDir, port: nats.port });

  const done = await until(
    'the batch to end',
    async () => {
      const p = await page(key, created.id);
      return p.status === 'done' ? p : undefined;
    },
    150_000,
  );
  expect(done.counts).toEqual({ total: 40, succeeded: 40, failed: 0, pending: 0, skipped: 0 });
  expect(done.results.map((r) => r.index)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  expect(new Set(done.results.map((r) => r.requestId)).size).toBe(40);
  // Deliveries cut off by the restart left reservations open; the sweeper (here: now) refunds them.
  await edge.store.sweepExpiredReservations(Date.now() + 3_600_000);
  expect(await edge.getKey(id)).toMatchObject({ credits_used: 40, pending: [] });
  expect(done.creditsCharged).toBe(40);
});
