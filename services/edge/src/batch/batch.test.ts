/**
 * The batch API through HTTP (inject) on a real NATS server (JetStream work queue, KV store) with the
 * contract-valid stand-in services of test-harness.ts: validation before anything is written, the
 * worker running items through the paid path (credits per item, failures free, temporary failures
 * retried), paging, ownership, cancellation, running out of credits, and the signed webhook.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchCreatedResponseSchema, BatchPageResponseSchema, ErrorEnvelopeSchema, type BatchPage, type RenderRequest } from '@enrich/shared/contracts';
import { BusyError, TargetUnreachableError } from '@enrich/shared/errors';
import { startNatsServer, type NatsServerHandle } from '../../../../test/support/nats-server.ts';
import { fakeRenderResult, serveFakes, startEdge, type EdgeHarness } from '../../../../test/support/edge-harness.ts';
import { resolveBatchConfig } from './config.ts';
import { verifyWebhook } from './webhook.ts';
import { checkWebhookUrl, validateBatch } from './validate.ts';
import { KvBatchStore } from './kv-store.ts';
import { addItemConsumer, openBatchQueue, publishItems } from './queue.ts';
import { emptyBitmap } from './record.ts';
import { startTestTelemetry } from '@enrich/shared/telemetry';
import type { Store } from '../store/port.ts';

// Before the edge exists: every span of this file lands in one in-memory exporter.
const telemetry = startTestTelemetry('batch-test');

let nats: NatsServerHandle;
let edge: EdgeHarness;
let fakes: ReturnType<typeof serveFakes>;
let hookServer: Server;
let hookUrl: string;
const hooks: Array<{ path: string; body: string; signature: string; timestamp: string }> = [];
const busyOnce = new Set<string>();
let releaseHold: () => void = () => undefined;
let held: Promise<void> = Promise.resolve();

async function render(req: RenderRequest) {
  const path = new URL(req.url).pathname;
  if (path.startsWith('/fail')) throw new TargetUnreachableError(`Could not load ${req.url}: net::ERR_CONNECTION_REFUSED`);
  if (path.startsWith('/slow')) await new Promise((r) => setTimeout(r, 400));
  if (path.startsWith('/hold')) await held;
  if (path.startsWith('/busy') && !busyOnce.has(req.url)) {
    busyOnce.add(req.url);
    throw new BusyError('renderer queue is full');
  }
  return fakeRenderResult(req);
}

beforeAll(async () => {
  nats = await startNatsServer();
  hookServer = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => {
      body += d.toString();
    });
    req.on('end', () => {
      hooks.push({ path: req.url ?? '', body, signature: String(req.headers['x-enrich-signature']), timestamp: String(req.headers['x-enrich-timestamp']) });
      // /flaky answers 500 to its first call: the delivery is retried.
      const calls = hooks.filter((h) => h.path === req.url).length;
      res.writeHead(req.url === '/flaky' && calls === 1 ? 500 : 204).end();
    });
  });
  await new Promise<void>((r) => hookServer.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(hookServer.address() as { port: number }).port}`;
  const batch = {
    ...resolveBatchConfig({
      BATCH_CONCURRENCY: 4,
      BATCH_YIELD_CONCURRENCY: 4,
      BATCH_KEY_CONCURRENCY: 2,
      BATCH_RETENTION_S: 3600,
      BATCH_MAX_ATTEMPTS: 3,
      BATCH_WORKER: true,
      WEBHOOK_MAX_ATTEMPTS: 4,
      WEBHOOK_TIMEOUT_MS: 2000,
      WEBHOOK_BACKOFF_MS: 50,
    }),
  };
  // The hook server listens on 127.0.0.1: the edge's ALLOW_PRIVATE_TARGETS exempts it (with the harness's 127.0.0.2).
  edge = await startEdge(nats.url, { batch, requestBudgetMs: 5000, allowPrivateTargets: ['127.0.0.2/32', '127.0.0.1/32'] });
  fakes = serveFakes(edge.nc, { render });
});
afterAll(async () => {
  await edge?.close();
  await fakes?.stop();
  await new Promise((r) => hookServer?.close(r));
  await nats?.stop();
});

async function submit(key: string, body: unknown): Promise<{ status: number; json: { success: boolean; error?: string; data?: unknown } }> {
  const res = await edge.app.inject({
    method: 'POST',
    url: '/batch',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, json: res.json() };
}

async function get(key: string, path: string): Promise<{ status: number; json: { success: boolean; error?: string; data?: unknown } }> {
  const res = await edge.app.inject({ method: 'GET', url: path, headers: { 'x-api-key': key } });
  return { status: res.statusCode, json: res.json() };
}

async function waitEnded(key: string, id: string, timeoutMs = 30_000): Promise<BatchPage> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const page = BatchPageResponseSchema.parse((await get(key, `/batch/${id}?limit=1000`)).json).data;
    if (['done', 'cancelled', 'stopped_credits'].includes(page.status) && page.counts.pending === 0) return page;
    if (Date.now() > end) throw new Error(`batch ${id} still ${page.status} ${JSON.stringify(page.counts)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function streamMessages(): Promise<number> {
  const { jetstreamManager } = await import('@nats-io/jetstream');
  const jsm = await jetstreamManager(edge.nc);
  return (await jsm.streams.info(`${edge.config.store.name.toUpperCase()}_BATCH`)).state.messages;
}

describe('POST /batch validation', () => {
  it('answers 400 naming every bad item by index, queues nothing and charges nothing', async () => {
    const { key, id } = await edge.createKey({ credits: 100 });
    const before = await streamMessages();
    const res = await submit(key, {
      endpoint: 'screenshot',
      items: [
        { url: 'https://a.test' },
        { url: 'https://b.test', width: 10 },
        { url: 'ftp://c.test' },
        { url: 'https://d.test', colour: 'red' },
        { url: 'https://e.test', maxAge: -1 },
      ],
    });
    expect(res.status).toBe(400);
    ErrorEnvelopeSchema.parse(res.json);
    expect(res.json.error).toMatch(/^Invalid batch: 4 of 5 items are invalid \(nothing was queued\)/);
    expect(res.json.error).toContain('items[1]: Invalid parameter "width": got "10", allowed: a whole number from 320 to 5000');
    expect(res.json.error).toContain('items[2]: Invalid parameter "url": scheme "ftp:" is not allowed');
    expect(res.json.error).toContain('items[3]: Unknown parameter "colour"');
    expect(res.json.error).toContain('items[4]: Invalid parameter "maxAge": got "-1"');
    expect(res.json.error).not.toContain('items[0]');
    expect(await streamMessages()).toBe(before);
    expect((await edge.getKey(id)).credits_used).toBe(0);
  });

  it('refuses a bad endpoint, an empty or oversized list, a bad maxAge and a webhook to a private address', async () => {
    const { key } = await edge.createKey();
    const cases: Array<[unknown, RegExp]> = [
      [{ endpoint: 'logos', items: [{ url: 'a.test' }] }, /^Invalid batch: endpoint: .*expected one of enrich, brand, company, classify, screenshot/],
      [{ endpoint: 'brand', items: [] }, /^Invalid batch: items: .*expected an array of 1 to 10000 objects/],
      [{ endpoint: 'brand', items: Array.from({ length: 10_001 }, () => ({ url: 'a.test' })) }, /^Invalid batch: items: .*10000/],
      [{ endpoint: 'brand', items: [{ url: 'a.test' }], maxAge: 2_592_001 }, /^Invalid batch: maxAge: .*from 0 to 2592000/],
      [
        { endpoint: 'brand', items: [{ url: 'a.test' }], webhook: 'http://10.1.2.3/hook' },
        /webhook http:\/\/10\.1\.2\.3\/hook is refused: the host is a private address$/,
      ],
      [{ endpoint: 'brand', items: [{ url: 'a.test' }], webhook: 'http://[::1]:9/hook' }, /is refused: the host is a loopback address$/],
      [{ endpoint: 'brand', items: [{ url: 'a.test' }], webhook: 'file:///etc/passwd' }, /scheme "file:" is not allowed/],
      [{ endpoint: 'brand', items: [{ url: 'a.test' }], extra: 1 }, /^Invalid batch: body: /],
    ];
    for (const [body, message] of cases) {
      const res = await submit(key, body);
      expect(res.status, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(res.json.error).toMatch(message);
    }
  });

  it("merges the batch maxAge into each item's parameters (an item's own wins), so items use the result cache as a GET would", () => {
    const valid = validateBatch({ endpoint: 'classify', items: [{ url: 'a.test' }, { url: 'b.test', maxAge: 0 }], maxAge: 60 });
    expect(valid.items.map((i) => i.params)).toEqual([
      { url: 'a.test', maxAge: '60' },
      { url: 'b.test', maxAge: '0' },
    ]);
    expect(valid.maxAge).toBe(60);
    // Without a batch maxAge the item keeps the endpoint's default (applied when the worker parses it).
    expect(validateBatch({ endpoint: 'classify', items: [{ url: 'a.test' }] }).items[0]?.params).toEqual({ url: 'a.test' });
  });

  it('refuses a webhook host that resolves to a private or metadata address (any of its addresses)', async () => {
    const resolveTo = (addresses: string[]) => async () => addresses;
    await expect(checkWebhookUrl('https://hooks.example/x', { allowPrivateTargets: [], resolve: resolveTo(['10.0.0.5']) })).rejects.toThrow(
      'Invalid batch: webhook https://hooks.example/x is refused: the host resolves to a private address',
    );
    await expect(
      checkWebhookUrl('https://hooks.example/x', { allowPrivateTargets: [], resolve: resolveTo(['93.184.215.14', '169.254.169.254']) }),
    ).rejects.toThrow(/is refused: the host resolves to a cloud metadata address$/);
    // The refusal says which kind of address, never which one (main's SSRF wording, shared/src/net/ssrf.ts).
    await expect(checkWebhookUrl('https://hooks.example/x', { allowPrivateTargets: [], resolve: resolveTo(['10.0.0.5']) })).rejects.not.toThrow(/10\.0\.0\.5/);
    await expect(checkWebhookUrl('https://user:pw@hooks.example/x', { allowPrivateTargets: [], resolve: resolveTo(['93.184.215.14']) })).rejects.toThrow(
      /credentials/,
    );
    expect(await checkWebhookUrl('https://hooks.example/x', { allowPrivateTargets: [], resolve: resolveTo(['93.184.215.14']) })).toBe(
      'https://hooks.example/x',
    );
  });

  it('needs a key (401), a JSON object (400) and credits for one item (402)', async () => {
    const none = await edge.app.inject({ method: 'POST', url: '/batch', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(none.statusCode).toBe(401);
    const { key } = await edge.createKey({ credits: 2 });
    const text = await edge.app.inject({ method: 'POST', url: '/batch', headers: { 'x-api-key': key, 'content-type': 'text/plain' }, payload: 'hi' });
    expect(text.statusCode).toBe(400);
    expect(ErrorEnvelopeSchema.parse(text.json()).error).toMatch(/^Invalid batch: body: .*expected object/);
    const poor = await submit(key, { endpoint: 'enrich', items: [{ url: 'a.test' }] });
    expect(poor.status).toBe(402);
    expect(poor.json.error).toBe('Credit limit exceeded');
  });
});

describe('running a batch', () => {
  it("answers every item once (data or the single endpoint's error), charges only successes, pages by cursor, signs its webhook", async () => {
    const { key, id } = await edge.createKey({ credits: 100 });
    const urls = ['https://a.test/1', 'https://a.test/fail', 'https://a.test/1', 'a.test/2', 'https://a.test/busy', 'https://a.test/fail2'];
    const created = await submit(key, { endpoint: 'classify', items: urls.map((url) => ({ url })), maxAge: 60, webhook: `${hookUrl}/flaky` });
    expect(created.status).toBe(202);
    const batch = BatchCreatedResponseSchema.parse(created.json).data;
    expect(batch).toMatchObject({ status: 'queued', total: 6, statusUrl: `/batch/${batch.id}` });
    const page = await waitEnded(key, batch.id);
    expect(page).toMatchObject({
      status: 'done',
      endpoint: 'classify',
      maxAge: 60,
      counts: { total: 6, succeeded: 4, failed: 2, pending: 0, skipped: 0 },
      creditsCharged: 4,
    });
    expect(page.results.map((r) => r.state)).toEqual(['succeeded', 'failed', 'succeeded', 'succeeded', 'succeeded', 'failed']);
    expect(page.results[1]).toMatchObject({ index: 1, status: 502, error: 'Could not load https://a.test/fail: net::ERR_CONNECTION_REFUSED', credits: 0 });
    expect(page.results[3]).toMatchObject({ index: 3, status: 200, url: 'a.test/2', data: { url: 'http://a.test/2', iab_id: 'IAB19-6' }, credits: 1 });
    // The BUSY answer was retried (refunded, then a second delivery charged).
    expect(page.results[4]).toMatchObject({ state: 'succeeded', credits: 1 });
    expect(await edge.getKey(id)).toMatchObject({ credits_used: 4, pending: [] });

    const first = BatchPageResponseSchema.parse((await get(key, `/batch/${batch.id}?limit=4`)).json).data;
    expect(first.results.map((r) => r.index)).toEqual([0, 1, 2, 3]);
    expect(first.nextCursor).toBe('4');
    const second = BatchPageResponseSchema.parse((await get(key, `/batch/${batch.id}?limit=4&cursor=4`)).json).data;
    expect(second.results.map((r) => r.index)).toEqual([4, 5]);
    expect(second.nextCursor).toBeNull();

    // The webhook: a 500 first, then delivered once more; both signed with the key's secret.
    const secrets = new KvBatchStore({ nc: edge.nc, name: edge.config.store.name, retentionMs: 3_600_000 });
    await secrets.init();
    const secret = (await secrets.webhookSecret(id, { create: false })) ?? '';
    const ended = await waitFor(async () => {
      const p = BatchPageResponseSchema.parse((await get(key, `/batch/${batch.id}`)).json).data;
      return p.webhook?.state === 'delivered' ? p : undefined;
    });
    expect(ended.webhook).toMatchObject({ state: 'delivered', attempts: 2 });
    const calls = hooks.filter((h) => h.path === '/flaky');
    expect(calls).toHaveLength(2);
    for (const c of calls) {
      expect(verifyWebhook(secret, c.timestamp, c.body, c.signature)).toBe(true);
      expect(verifyWebhook(secret, c.timestamp, c.body.replace('"done"', '"cancelled"'), c.signature)).toBe(false);
    }
    expect(JSON.parse(calls[1]!.body)).toMatchObject({ event: 'batch.finished', batch: { id: batch.id, status: 'done', counts: { succeeded: 4, failed: 2 } } });
  });

  it('is invisible to other keys (404 on GET and DELETE)', async () => {
    const owner = await edge.createKey();
    const other = await edge.createKey();
    const created = BatchCreatedResponseSchema.parse((await submit(owner.key, { endpoint: 'screenshot', items: [{ url: 'https://a.test/x' }] })).json).data;
    const peek = await get(other.key, `/batch/${created.id}`);
    expect(peek.status).toBe(404);
    expect(peek.json.error).toMatch(/^No batch "bat_[0-9a-f]+" for this API key$/);
    const del = await edge.app.inject({ method: 'DELETE', url: `/batch/${created.id}`, headers: { 'x-api-key': other.key } });
    expect(del.statusCode).toBe(404);
    expect((await get(owner.key, '/batch/bat_nope')).status).toBe(404);
    expect((await get(owner.key, `/batch/${created.id}?limit=0`)).json.error).toBe(
      'Invalid query parameter "limit": got "0", allowed: a whole number from 1 to 1000',
    );
    expect((await get(owner.key, `/batch/${created.id}?cursor=abc`)).json.error).toBe(
      'Invalid query parameter "cursor": got "abc", allowed: the nextCursor of a previous page',
    );
    expect((await get(owner.key, `/batch/${created.id}?page=2`)).status).toBe(400);
    await waitEnded(owner.key, created.id);
  });

  it('stops with stopped_credits when the key runs out; the remaining items are skipped and not charged', async () => {
    const { key, id } = await edge.createKey({ credits: 3 });
    const created = BatchCreatedResponseSchema.parse(
      (await submit(key, { endpoint: 'classify', items: Array.from({ length: 8 }, (_, i) => ({ url: `https://b.test/${i}` })), webhook: `${hookUrl}/credits` }))
        .json,
    ).data;
    await waitEnded(key, created.id);
    // An item already running when another one met the credit limit still finishes and is counted
    // after the batch has ended: read the page once no reservation is open and every charge is counted.
    const page = await waitFor(async () => {
      const [p, k] = await Promise.all([waitEnded(key, created.id), edge.getKey(id)]);
      return k && k.pending.length === 0 && k.credits_used === p.creditsCharged ? p : undefined;
    });
    expect(page.status).toBe('stopped_credits');
    expect(page.counts).toEqual({ total: 8, succeeded: 3, failed: 0, pending: 0, skipped: 5 });
    expect(page.creditsCharged).toBe(3);
    expect(page.results.filter((r) => r.state === 'skipped')).toHaveLength(5);
    expect(await edge.getKey(id)).toMatchObject({ credits_used: 3, pending: [] });
    await waitFor(async () => (hooks.some((h) => h.path === '/credits') ? true : undefined));
  });

  it('DELETE cancels what has not started; a second DELETE is 409', async () => {
    const { key, id } = await edge.createKey({ credits: 1000 });
    const created = BatchCreatedResponseSchema.parse(
      (await submit(key, { endpoint: 'classify', items: Array.from({ length: 40 }, (_, i) => ({ url: `https://c.test/slow/${i}` })) })).json,
    ).data;
    await waitFor(async () => {
      const p = BatchPageResponseSchema.parse((await get(key, `/batch/${created.id}`)).json).data;
      return p.counts.succeeded >= 1 ? p : undefined;
    });
    const del = await edge.app.inject({ method: 'DELETE', url: `/batch/${created.id}`, headers: { 'x-api-key': key } });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toMatchObject({ success: true, data: { status: 'cancelled' } });
    const page = await waitEnded(key, created.id);
    // Items already running when it was cancelled finish (and are charged); none starts after.
    await new Promise((r) => setTimeout(r, 1000));
    const after = BatchPageResponseSchema.parse((await get(key, `/batch/${created.id}?limit=1000`)).json).data;
    expect(after.counts.succeeded).toBeLessThan(40);
    expect(after.counts.succeeded).toBeLessThanOrEqual(page.counts.succeeded + 2);
    expect(after.counts.skipped).toBe(40 - after.counts.succeeded);
    expect((await edge.getKey(id)).credits_used).toBe(after.counts.succeeded);
    const again = await edge.app.inject({ method: 'DELETE', url: `/batch/${created.id}`, headers: { 'x-api-key': key } });
    expect(again.statusCode).toBe(409);
  });
});

describe('sharing and tracing', () => {
  it("a key's small batch submitted after another key's large one finishes while the large one still runs", async () => {
    const big = await edge.createKey({ credits: 1000 });
    const small = await edge.createKey({ credits: 1000 });
    const large = BatchCreatedResponseSchema.parse(
      (await submit(big.key, { endpoint: 'classify', items: Array.from({ length: 30 }, (_, i) => ({ url: `https://big.test/slow/${i}` })) })).json,
    ).data;
    await waitFor(async () => (BatchPageResponseSchema.parse((await get(big.key, `/batch/${large.id}`)).json).data.counts.succeeded >= 2 ? true : undefined));
    const late = BatchCreatedResponseSchema.parse(
      (await submit(small.key, { endpoint: 'classify', items: [{ url: 'https://small.test/slow/1' }, { url: 'https://small.test/slow/2' }] })).json,
    ).data;
    const done = await waitEnded(small.key, late.id);
    const bigNow = BatchPageResponseSchema.parse((await get(big.key, `/batch/${large.id}`)).json).data;
    expect(done.counts.succeeded).toBe(2);
    // In arrival order the small batch would wait for all 30; with per-key caps and turns it does not.
    expect(bigNow.counts.pending).toBeGreaterThanOrEqual(8);
    await edge.app.inject({ method: 'DELETE', url: `/batch/${large.id}`, headers: { 'x-api-key': big.key } });
    await waitEnded(big.key, large.id);
  });

  it('with BATCH_YIELD_CONCURRENCY=0, no item starts while an interactive request is in flight', async () => {
    const polite = await startEdge(nats.url, {
      batch: { ...edge.config.batch!, yieldConcurrency: 0 },
      requestBudgetMs: 5000,
      allowPrivateTargets: edge.config.allowPrivateTargets,
    });
    try {
      const gen = await polite.createKey({ credits: 100 });
      held = new Promise<void>((r) => {
        releaseHold = r;
      });
      const single = polite.app.inject({ method: 'GET', url: '/classify?url=https://i.test/hold', headers: { 'x-api-key': gen.key } });
      await waitFor(async () => (fakes.calls.render.some((r) => r.url === 'https://i.test/hold') ? true : undefined));
      const created = BatchCreatedResponseSchema.parse(
        (
          await polite.app.inject({
            method: 'POST',
            url: '/batch',
            headers: { 'x-api-key': gen.key, 'content-type': 'application/json' },
            payload: JSON.stringify({ endpoint: 'classify', items: [{ url: 'https://j.test/1' }, { url: 'https://j.test/2' }] }),
          })
        ).json(),
      ).data;
      await new Promise((r) => setTimeout(r, 2500)); // discovery (1 s) and more: the batch could have run by now
      const waiting = BatchPageResponseSchema.parse(
        (await polite.app.inject({ method: 'GET', url: `/batch/${created.id}`, headers: { 'x-api-key': gen.key } })).json(),
      ).data;
      expect(waiting.counts).toMatchObject({ succeeded: 0, failed: 0, pending: 2 });
      releaseHold();
      expect((await single).statusCode).toBe(200);
      await waitFor(async () => {
        const p = BatchPageResponseSchema.parse(
          (await polite.app.inject({ method: 'GET', url: `/batch/${created.id}`, headers: { 'x-api-key': gen.key } })).json(),
        ).data;
        return p.status === 'done' ? p : undefined;
      });
    } finally {
      releaseHold();
      await polite.close();
    }
  });

  it('an item whose every delivery fails before answering is closed as a 500 when JetStream gives up on it, so the batch ends', {
    timeout: 60_000,
  }, async () => {
    const strict = await startEdge(nats.url, {
      batch: { ...edge.config.batch!, maxAttempts: 1 },
      requestBudgetMs: 5000,
      allowPrivateTargets: edge.config.allowPrivateTargets,
    });
    try {
      const gen = await strict.createKey({ credits: 100 });
      const name = strict.config.store.name;
      const batches = new KvBatchStore({ nc: strict.nc, name, retentionMs: 3_600_000 });
      await batches.init();
      const queue = await openBatchQueue(strict.nc, name);
      const id = `bat_${'ab'.repeat(12)}`;
      await batches.create({
        id,
        keyId: gen.id,
        endpoint: 'classify',
        total: 2,
        status: 'queued',
        createdAt: new Date().toISOString(),
        startedAt: null,
        finishedAt: null,
        maxAge: null,
        webhook: null,
        answered: emptyBitmap(2),
        succeeded: 0,
        failed: 0,
        creditsCharged: 0,
        link: null,
        expiresAt: Date.now() + 3_600_000,
      });
      // Item 1's message is broken (no parameters): the worker throws on every delivery, as if it crashed.
      await publishItems(queue, [
        { batchId: id, index: 0, params: { url: 'https://ok.test/' } },
        { batchId: id, index: 1, params: null as unknown as Record<string, string> },
      ]);
      await addItemConsumer(queue, id, { ackWaitMs: 5000, maxDeliver: 3 });
      const done = await waitFor(async () => {
        const p = BatchPageResponseSchema.parse(
          (await strict.app.inject({ method: 'GET', url: `/batch/${id}`, headers: { 'x-api-key': gen.key } })).json(),
        ).data;
        return p.status === 'done' ? p : undefined;
      }, 45_000);
      expect(done.counts).toMatchObject({ succeeded: 1, failed: 1, pending: 0 });
      expect(done.results[1]).toMatchObject({
        state: 'failed',
        status: 500,
        error: `Internal error: the item failed on each of its 3 deliveries; quote batch ${id} item 1 when reporting it`,
      });
      expect((await strict.getKey(gen.id)).credits_used).toBe(1);
    } finally {
      await strict.close();
    }
  });

  it('an item whose answer is stored but whose charge fails (NATS cut) is charged again, never refunded: a stored answer is never free', {
    timeout: 60_000,
  }, async () => {
    let failedCharges = 0;
    const faulty = await startEdge(
      nats.url,
      { batch: edge.config.batch!, requestBudgetMs: 5000, allowPrivateTargets: edge.config.allowPrivateTargets },
      {
        wrapStore: (store) =>
          new Proxy(store, {
            get(target, prop) {
              if (prop === 'settleCredits') {
                return async (s: Parameters<Store['settleCredits']>[0]) => {
                  // The first charge is lost on the way, as when NATS restarts between the answer and the charge.
                  if (s.outcome === 'charge' && failedCharges++ === 0) throw new Error('connection closed');
                  return target.settleCredits(s);
                };
              }
              const v: unknown = Reflect.get(target, prop);
              return typeof v === 'function' ? v.bind(target) : v;
            },
          }),
      },
    );
    try {
      const gen = await faulty.createKey({ credits: 100 });
      const res = await faulty.app.inject({
        method: 'POST',
        url: '/batch',
        headers: { 'x-api-key': gen.key, 'content-type': 'application/json' },
        payload: JSON.stringify({ endpoint: 'classify', items: [{ url: 'https://cut.test/1' }, { url: 'https://cut.test/2' }] }),
      });
      const { id } = BatchCreatedResponseSchema.parse(res.json()).data;
      const done = await waitFor(async () => {
        const p = BatchPageResponseSchema.parse(
          (await faulty.app.inject({ method: 'GET', url: `/batch/${id}`, headers: { 'x-api-key': gen.key } })).json(),
        ).data;
        return p.status === 'done' ? p : undefined;
      }, 30_000);
      expect(failedCharges).toBeGreaterThan(1);
      expect(done.counts).toMatchObject({ succeeded: 2, failed: 0, pending: 0 });
      expect(done.creditsCharged).toBe(2);
      expect(await faulty.getKey(gen.id)).toMatchObject({ credits_used: 2, pending: [] });
    } finally {
      await faulty.close();
    }
  });

  it('each item is its own trace, linked to the span of the POST /batch request, with the render call inside it', async () => {
    const { key } = await edge.createKey({ credits: 10 });
    const created = BatchCreatedResponseSchema.parse(
      (await submit(key, { endpoint: 'classify', items: [{ url: 'https://t.test/1' }, { url: 'https://t.test/2' }] })).json,
    ).data;
    await waitEnded(key, created.id);
    await new Promise((r) => setTimeout(r, 200));
    const spans = telemetry.exporter.getFinishedSpans();
    const post = spans.find((sp) => sp.name === 'POST /batch' && sp.attributes['enrich.batch_id'] === created.id);
    expect(post).toBeDefined();
    const items = spans.filter((sp) => sp.name === 'batch.item' && sp.attributes['enrich.batch_id'] === created.id);
    expect(items.map((sp) => sp.attributes['enrich.batch_index']).sort()).toEqual([0, 1]);
    for (const item of items) {
      expect(item.spanContext().traceId).not.toBe(post?.spanContext().traceId);
      expect(item.links.map((l) => l.context.spanId)).toEqual([post?.spanContext().spanId]);
      expect(item.attributes['enrich.outcome']).toBe('succeeded');
      const inside = spans.filter((sp) => sp.spanContext().traceId === item.spanContext().traceId && sp !== item);
      expect(inside.some((sp) => sp.name.startsWith('render.page'))).toBe(true);
    }
  });
});

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}
