/**
 * A crash between reserving and settling neither loses nor double-charges: the edge process is
 * SIGKILLed while a paid request is in flight (the stand-in renderer never answers), the
 * reservation survives in the store, and once it has expired the restarted edge's start-up sweep
 * refunds it exactly once. Another key's credits (with its own open reservation) never move.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RENDER_PAGE } from '@enrich/shared/contracts';
import { freePort, startNatsServer, type NatsServerHandle } from '../support/nats-server.ts';
import { generateApiKey } from '../../services/edge/src/auth/api-keys.ts';
import { KvStore } from '../../services/edge/src/store/kv.ts';

const ROOT = join(import.meta.dirname, '..', '..');
let nats: NatsServerHandle;
let nc: NatsConnection;
const children: ChildProcess[] = [];

beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connect({ servers: nats.url });
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await nc?.close();
  await nats?.stop();
});

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function startEdgeProcess(env: Record<string, string>): { child: ChildProcess; listening: Promise<string>; output: () => string } {
  const child = spawn(process.execPath, [join(ROOT, 'services/edge/src/main.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /edge listening on (http:\/\/[^"\s]+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.stderr?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.once('exit', (code) => reject(new Error(`edge exited with ${code} before listening:\n${out}`)));
  });
  return { child, listening, output: () => out };
}

it('a SIGKILLed edge leaves the reservation open; it is refunded once expired, on restart; no other key moves', async () => {
  const storeName = `crash_${randomUUID().slice(0, 8)}`;
  const store = new KvStore({ nc, name: storeName });
  await store.init();
  const victim = generateApiKey();
  const bystander = generateApiKey();
  await store.createKey({ id: victim.id, name: 'victim', hash: victim.hash, credits_limit: 10, rate_limit: 100 });
  await store.createKey({ id: bystander.id, name: 'bystander', hash: bystander.hash, credits_limit: 10, rate_limit: 100 });
  // The bystander has a request of its own in flight on another (live) instance.
  await store.reserveCredits({ keyId: bystander.id, requestId: randomUUID(), amount: 2, endpoint: 'brand', expiresAt: Date.now() + 3_600_000 });

  // A renderer that takes the job and never answers: the request stays between reserve and settle.
  let received = 0;
  const hanging = nc.subscribe(RENDER_PAGE.subject, {
    queue: RENDER_PAGE.queue,
    callback: () => {
      received += 1;
    },
  });

  const port = await freePort();
  const env = {
    NATS_URL: nats.url,
    STORE_NAME: storeName,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    // The reservation TTL may not be below the budget; the edge is killed long before 5 s.
    REQUEST_BUDGET_MS: '5000',
    RESERVATION_TTL_MS: '5000',
    SWEEP_INTERVAL_MS: '3600000', // only the start-up sweep runs in this test
    SCREENSHOT_DIR: join(ROOT, '.data', 'test-screenshots'),
  };
  const first = startEdgeProcess(env);
  const base = await first.listening;
  const inFlight = fetch(`${base}/enrich?url=acme.test`, { headers: { 'x-api-key': victim.plaintext } }).catch((err: unknown) => err);
  await until('the render request to arrive', async () => (received > 0 ? true : undefined));
  const reserved = await store.getKey(victim.id);
  expect(reserved).toMatchObject({ credits_used: 3 });
  expect(reserved?.pending).toHaveLength(1);

  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));
  expect(await inFlight).toBeInstanceOf(Error); // the client saw the connection die
  // Nothing was lost or refunded by the crash itself: the reservation is still open.
  expect((await store.getKey(victim.id))?.credits_used).toBe(3);

  const expiresAt = reserved?.pending[0]?.expiresAt ?? 0;
  await until('the reservation to expire', async () => (Date.now() > expiresAt ? true : undefined));
  const second = startEdgeProcess(env);
  await second.listening;
  const refunded = await until('the start-up sweep to refund', async () => {
    const k = await store.getKey(victim.id);
    return k && k.credits_used === 0 ? k : undefined;
  });
  expect(refunded.pending).toEqual([]);
  const other = await store.getKey(bystander.id);
  expect(other).toMatchObject({ credits_used: 2 });
  expect(other?.pending).toHaveLength(1);
  // Settling the swept request late (e.g. a retried settle) changes nothing: no double refund.
  const swept = reserved?.pending[0]?.requestId ?? '';
  expect(await store.settleCredits({ keyId: victim.id, requestId: swept, outcome: 'refund' })).toMatchObject({ applied: false, credits_used: 0 });
  await until('the sweep to be logged', async () => (/refunded expired credit reservations/.test(second.output()) ? true : undefined));

  hanging.unsubscribe();
  second.child.kill('SIGTERM');
  await new Promise((r) => second.child.once('exit', r));
});
