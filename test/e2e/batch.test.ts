/**
 * Issue 15's "done when": a batch of 200 fixture URLs (some failing, some duplicates) through the
 * real edge and renderer processes, the real analyzers and a private nats-server. Midway the renderer
 * is restarted (SIGTERM, then a new process) and the edge is SIGKILLed and started again. The batch
 * still ends with every item answered exactly once, the key charged exactly the successful items'
 * cost (no item charged twice, the killed edge's open reservations refunded by the sweeper), and the
 * webhook received once with a valid signature.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { BatchCreatedResponseSchema, BatchPageResponseSchema, type BatchPage } from '@enrich/shared/contracts';
import { createLogger } from '@enrich/shared/runtime';
import { freePort, startNatsServer, type NatsServerHandle } from '../support/nats-server.ts';
import { startAnalyzers } from '../support/analyzers.ts';
import { generateApiKey } from '../../services/edge/src/auth/api-keys.ts';
import { KvStore } from '../../services/edge/src/store/kv.ts';
import { KvBatchStore } from '../../services/edge/src/batch/kv-store.ts';
import { verifyWebhook } from '../../services/edge/src/batch/webhook.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const TOTAL = 200;
let nats: NatsServerHandle;
let nc: NatsConnection;
let site: Server;
let siteBase: string;
let closedBase: string;
let hookServer: Server;
let hookBase: string;
let analyzers: { stop(): Promise<void> };
const hooks: Array<{ body: string; signature: string; timestamp: string }> = [];
const children: ChildProcess[] = [];
const screenshotDir = mkdtempSync(join(tmpdir(), 'batch-e2e-'));

beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connect({ servers: nats.url });
  site = createServer((req, res) => {
    const n = (req.url ?? '/').replace(/\D/g, '') || '0';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><title>Shop ${n} - running shoes</title><meta name="description" content="Shop ${n} sells running shoes and sports apparel."></head><body><h1>Shop ${n}</h1><p>Running shoes, trail shoes and sports apparel.</p><footer>Shop ${n} Ltd, shop${n}@example.test</footer></body></html>`,
    );
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.2', r));
  siteBase = `http://127.0.0.2:${(site.address() as { port: number }).port}`;
  closedBase = `http://127.0.0.2:${await freePort('127.0.0.2')}`;
  hookServer = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => {
      body += d.toString();
    });
    req.on('end', () => {
      hooks.push({ body, signature: String(req.headers['x-enrich-signature']), timestamp: String(req.headers['x-enrich-timestamp']) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => hookServer.listen(0, '127.0.0.1', r));
  hookBase = `http://127.0.0.1:${(hookServer.address() as { port: number }).port}`;
  analyzers = await startAnalyzers(nc, createLogger('batch-e2e', 'warn'));
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await analyzers?.stop();
  await nc?.close();
  await new Promise((r) => site?.close(r));
  await new Promise((r) => hookServer?.close(r));
  await nats?.stop();
});

function startProcess(service: 'edge' | 'renderer', env: Record<string, string>, ready: RegExp): { child: ChildProcess; ready: Promise<string> } {
  const child = spawn(process.execPath, [join(ROOT, 'services', service, 'src', 'main.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NATS_URL: nats.url, LOG_LEVEL: 'info', SCREENSHOT_DIR: screenshotDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  const started = new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer): void => {
      out = (out + d.toString()).slice(-20_000);
      const m = ready.exec(out);
      if (m) resolve(m[1] ?? '');
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`${service} exited (${code ?? signal}) before it was ready:\n${out}`)));
  });
  return { child, ready: started };
}

async function stopProcess(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await exited;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Every item once, in order: the closed-port ones failed with the single request's 502, the others (duplicates too) succeeded. */
function expectEachAnsweredOnce(done: BatchPage, failing: (i: number) => boolean, urlOf: (i: number) => string): void {
  const failed = Array.from({ length: TOTAL }, (_, i) => i).filter(failing).length;
  expect(done.counts).toEqual({ total: TOTAL, succeeded: TOTAL - failed, failed, pending: 0, skipped: 0 });
  expect(done.results.map((r) => r.index)).toEqual(Array.from({ length: TOTAL }, (_, i) => i));
  for (const r of done.results) {
    if (failing(r.index)) {
      expect(r, `item ${r.index}`).toMatchObject({ state: 'failed', status: 502, credits: 0 });
      expect(r.error).toContain(`${closedBase}/gone/${r.index}`);
    } else {
      expect(r, `item ${r.index}`).toMatchObject({ state: 'succeeded', status: 200, credits: 1, url: urlOf(r.index), data: { url: `${urlOf(r.index)}` } });
    }
  }
}

/**
 * Charged exactly once per successful item: the key's total, the batch's own sum, and the usage log's
 * charged entries (one per answer's requestId, none for a killed or retried delivery).
 */
async function expectChargedOnce(store: KvStore, keyId: string, done: BatchPage): Promise<void> {
  const key = await until(
    "the killed edge's reservations to be swept",
    async () => {
      const cur = await store.getKey(keyId);
      return cur && cur.pending.length === 0 ? cur : undefined;
    },
    60_000,
  );
  expect(key.credits_used).toBe(done.counts.succeeded);
  expect(done.creditsCharged).toBe(done.counts.succeeded);
  const charged = (await store.listUsage(keyId, 10_000)).filter((u) => u.credits > 0);
  expect(charged.map((u) => u.requestId).sort()).toEqual(
    done.results
      .filter((r) => r.state === 'succeeded')
      .map((r) => r.requestId)
      .sort(),
  );
}

/** One webhook, signed with the key's secret, about this batch as it ended. */
async function expectOneSignedWebhook(secret: string, batchId: string, done: BatchPage): Promise<void> {
  const delivered = await until('the webhook', async () => (hooks.length > 0 ? hooks : undefined), 30_000);
  await new Promise((r) => setTimeout(r, 2000));
  expect(delivered).toHaveLength(1);
  const hook = delivered[0]!;
  expect(verifyWebhook(secret, hook.timestamp, hook.body, hook.signature)).toBe(true);
  expect(JSON.parse(hook.body)).toMatchObject({
    event: 'batch.finished',
    batch: { id: batchId, status: 'done', counts: done.counts, creditsCharged: done.counts.succeeded },
  });
}

// The waits below only end a run that hangs; they are not speed limits: on a 2-core machine whose
// Chromium runs 2.5x slower than usual (2026-11-25) the 200 items took about 13 minutes.
it('200 items through a renderer restart and an edge SIGKILL: each answered once, charged once, one signed webhook', { timeout: 1_500_000 }, async () => {
  const storeName = `batch_${randomUUID().slice(0, 8)}`;
  const store = new KvStore({ nc, name: storeName });
  await store.init();
  const k = generateApiKey();
  await store.createKey({ id: k.id, name: 'bulk customer', hash: k.hash, credits_limit: 10_000, rate_limit: 10_000 });
  const batches = new KvBatchStore({ nc, name: storeName, retentionMs: 3_600_000 });
  await batches.init();
  const secret = (await batches.webhookSecret(k.id)) ?? '';

  const rendererEnv = { ALLOW_PRIVATE_TARGETS: '127.0.0.2/32', RENDER_CONCURRENCY: '2', RENDER_QUEUE: '8', ASSETS_BASE_URL: 'http://127.0.0.1:9/assets' };
  const port = await freePort();
  // The edge's ALLOW_PRIVATE_TARGETS covers both the fixture site (its early target guard) and the webhook receiver.
  const edgeEnv = {
    STORE_NAME: storeName,
    PORT: String(port),
    HOST: '127.0.0.1',
    REQUEST_BUDGET_MS: '8000',
    RESERVATION_TTL_MS: '20000',
    SWEEP_INTERVAL_MS: '2000',
    BATCH_CONCURRENCY: '3',
    BATCH_KEY_CONCURRENCY: '3',
    BATCH_MAX_ATTEMPTS: '6',
    ALLOW_PRIVATE_TARGETS: '127.0.0.1/32,127.0.0.2/32',
    WEBHOOK_BACKOFF_MS: '200',
  };
  let renderer = startProcess('renderer', rendererEnv, /(renderer serving render\.page)/);
  let edge = startProcess('edge', edgeEnv, /edge listening on (http:\/\/[^"\s]+)/);
  const [, base] = await Promise.all([renderer.ready, edge.ready]);

  // Every 13th item points at a closed port (fails with 502); items 170-199 repeat earlier URLs.
  const failing = (i: number): boolean => i % 13 === 5;
  const urlOf = (i: number): string => (failing(i) ? `${closedBase}/gone/${i}` : `${siteBase}/p/${i % 170}`);
  const items = Array.from({ length: TOTAL }, (_, i) => ({ url: urlOf(i) }));
  const res = await fetch(`${base}/batch`, {
    method: 'POST',
    headers: { 'x-api-key': k.plaintext, 'content-type': 'application/json' },
    body: JSON.stringify({ endpoint: 'classify', items, webhook: `${hookBase}/done` }),
  });
  expect(res.status).toBe(202);
  const created = BatchCreatedResponseSchema.parse(await res.json()).data;
  const status = async (): Promise<BatchPage> => {
    const r = await fetch(`${base}/batch/${created.id}?limit=1000`, { headers: { 'x-api-key': k.plaintext } });
    return BatchPageResponseSchema.parse(await r.json()).data;
  };
  const answered = (p: BatchPage): number => p.counts.succeeded + p.counts.failed;
  // Progress on the console: where a slow or stuck run was.
  const t0 = Date.now();
  const progress = setInterval(() => {
    void status().then(
      (p) => process.stderr.write(`batch e2e ${Math.round((Date.now() - t0) / 1000)} s: ${p.status} ${JSON.stringify(p.counts)}\n`),
      () => undefined,
    );
  }, 10_000);
  onTestFinished(() => clearInterval(progress));

  // Restart the renderer once a fifth is answered.
  await until('40 answers', async () => (answered(await status()) >= 40 ? true : undefined), 400_000);
  await stopProcess(renderer.child, 'SIGTERM');
  renderer = startProcess('renderer', rendererEnv, /(renderer serving render\.page)/);
  await renderer.ready;

  // Kill the edge without warning once half is answered, then start a new one on the same store.
  await until('100 answers', async () => (answered(await status()) >= 100 ? true : undefined), 400_000);
  await stopProcess(edge.child, 'SIGKILL');
  const atKill = await batches.get(created.id);
  edge = startProcess('edge', edgeEnv, /edge listening on (http:\/\/[^"\s]+)/);
  await edge.ready;

  const done = await until(
    'the batch to end',
    async () => {
      const p = await status();
      return p.status === 'done' ? p : undefined;
    },
    600_000,
  );
  expect(atKill?.status).toBe('running');
  expectEachAnsweredOnce(done, failing, urlOf);
  await expectChargedOnce(store, k.id, done);
  await expectOneSignedWebhook(secret, created.id, done);

  await stopProcess(edge.child, 'SIGTERM');
  await stopProcess(renderer.child, 'SIGTERM');
});
