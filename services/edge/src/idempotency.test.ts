/**
 * Idempotency-Key and "charges match answers", through the real app (inject) on a private
 * nats-server and a fresh KV store, with the contract-valid renderer/analyzer stand-ins of
 * test/support/edge-harness.ts. The stand-in renderer is told per test how to behave (answer, fail, wait on a gate).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema, type RenderRequest, type RenderResult } from '@enrich/shared/contracts';
import { BusyError, TargetUnreachableError } from '@enrich/shared/errors';
import { startNatsServer, type NatsServerHandle } from '../../../test/support/nats-server.ts';
import { fakeRenderResult, serveFakes, startEdge, type EdgeHarness } from '../../../test/support/edge-harness.ts';

let nats: NatsServerHandle;
let h: EdgeHarness;
let fakes: ReturnType<typeof serveFakes>;
/** How the stand-in renderer answers the next render (default: a normal page). */
let renderWith: ((req: RenderRequest) => Promise<RenderResult>) | undefined;

beforeAll(async () => {
  nats = await startNatsServer();
  h = await startEdge(nats.url);
  fakes = serveFakes(h.nc, { render: async (req) => (renderWith ? renderWith(req) : fakeRenderResult(req)) });
});
afterAll(async () => {
  await fakes?.stop();
  await h?.close();
  await nats?.stop();
});

function call(path: string, apiKey: string, idempotencyKey?: string, app = h.app) {
  return app.inject({ url: path, headers: { 'x-api-key': apiKey, ...(idempotencyKey !== undefined ? { 'idempotency-key': idempotencyKey } : {}) } });
}
const rendersFor = (url: string) => fakes.calls.render.filter((r) => r.url === url).length;

describe('Idempotency-Key', () => {
  it('a retry with the same key and parameters gets the first answer again and is charged once', async () => {
    renderWith = undefined;
    const { key, id } = await h.createKey({ credits: 10 });
    const ik = randomUUID();
    const first = await call('/enrich?url=once.test', key, ik);
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The same request after URL normalisation (scheme added, trailing slash) is the same request.
    const again = await call('/enrich?url=http%3A%2F%2Fonce.test%2F', key, ik);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(again.headers['x-credits-used']).toBe('3');
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(rendersFor('http://once.test/')).toBe(1);
    expect((await h.getKey(id)).credits_used).toBe(3);
    // Without the header, the same request is a new request.
    expect((await call('/enrich?url=once.test', key)).headers['idempotent-replayed']).toBeUndefined();
    expect((await h.getKey(id)).credits_used).toBe(6);
  });

  it('the same key with other parameters is a 422 that says so, costs nothing', async () => {
    renderWith = undefined;
    const { key, id } = await h.createKey({ credits: 10 });
    const ik = `order-${randomUUID()}`;
    expect((await call('/classify?url=a.test', key, ik)).statusCode).toBe(200);
    for (const other of ['/classify?url=b.test', '/screenshot?url=a.test']) {
      const res = await call(other, key, ik);
      expect(res.statusCode).toBe(422);
      expect(ErrorEnvelopeSchema.parse(res.json()).error).toBe(
        'This Idempotency-Key was already used with other parameters (method, path or query); use a new key for a different request',
      );
    }
    expect((await h.getKey(id)).credits_used).toBe(1);
    // Another API key's identical Idempotency-Key is another key.
    const other = await h.createKey({ credits: 10 });
    expect((await call('/screenshot?url=a.test', other.key, ik)).statusCode).toBe(200);
  });

  it('while the first request runs, a retry gets 409; afterwards the replay', async () => {
    const { key, id } = await h.createKey({ credits: 10 });
    let arrived!: () => void;
    const renderArrived = new Promise<void>((r) => {
      arrived = r;
    });
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    renderWith = async (req) => {
      arrived();
      await gate;
      return fakeRenderResult(req);
    };
    const ik = randomUUID();
    const first = call('/classify?url=slow.test', key, ik);
    await renderArrived;
    const during = await call('/classify?url=slow.test', key, ik);
    expect(during.statusCode).toBe(409);
    expect(during.headers['retry-after']).toBe('1');
    expect(ErrorEnvelopeSchema.parse(during.json()).error).toMatch(/^A request with this Idempotency-Key is still in progress/);
    release();
    const done = await first;
    renderWith = undefined;
    expect(done.statusCode).toBe(200);
    const replay = await call('/classify?url=slow.test', key, ik);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(done.body);
    expect((await h.getKey(id)).credits_used).toBe(1);
  });

  it('a retryable failure (503) is not stored: the retry runs again; a final one (502) is replayed', async () => {
    const { key, id } = await h.createKey({ credits: 10 });
    const ik = randomUUID();
    renderWith = async () => {
      throw new BusyError('all browser slots are taken');
    };
    expect((await call('/screenshot?url=busy.test', key, ik)).statusCode).toBe(503);
    renderWith = undefined;
    const retried = await call('/screenshot?url=busy.test', key, ik);
    expect(retried.statusCode).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect((await h.getKey(id)).credits_used).toBe(1);

    const ik2 = randomUUID();
    renderWith = async (req) => {
      throw new TargetUnreachableError(`${req.url} could not be reached: net::ERR_NAME_NOT_RESOLVED`);
    };
    const failed = await call('/screenshot?url=gone.test', key, ik2);
    expect(failed.statusCode).toBe(502);
    renderWith = undefined;
    const replayed = await call('/screenshot?url=gone.test', key, ik2);
    expect(replayed.statusCode).toBe(502);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toBe(failed.body);
    expect(rendersFor('http://gone.test/')).toBe(1);
    expect((await h.getKey(id)).credits_used).toBe(1);
  });

  it('an invalid header is a 400 naming the problem, costs nothing and claims nothing', async () => {
    renderWith = undefined;
    const { key, id } = await h.createKey({ credits: 10 });
    const tooLong = await call('/classify?url=a.test', key, 'k'.repeat(256));
    expect(tooLong.statusCode).toBe(400);
    expect(ErrorEnvelopeSchema.parse(tooLong.json()).error).toBe(
      'Invalid Idempotency-Key header: got 256 characters, allowed: 1 to 255 printable ASCII characters (a UUID is a good key)',
    );
    const nonAscii = await call('/classify?url=a.test', key, 'clé');
    expect(nonAscii.statusCode).toBe(400);
    expect(ErrorEnvelopeSchema.parse(nonAscii.json()).error).toMatch(/^Invalid Idempotency-Key header: it contains a character that is not printable ASCII/);
    const empty = await call('/classify?url=a.test', key, '');
    expect(empty.statusCode).toBe(400);
    expect((await call('/classify?url=a.test', key, 'k'.repeat(255))).statusCode).toBe(200);
    expect((await h.getKey(id)).credits_used).toBe(1);
  });
});

describe('charges match answers', () => {
  it('the ledger cannot be written when the charge is due: 503, nothing charged, the sweeper refunds the held credits once', async () => {
    const store = { kind: 'kv' as const, name: `chg_${randomUUID().slice(0, 8)}` };
    const edge = await startEdge(nats.url, { store });
    try {
      const { key, id } = await edge.createKey({ credits: 10 });
      renderWith = async (req) => {
        // The store loses the ledger while the page is rendered: the settle after it must fail closed.
        const res = JSON.parse((await edge.nc.request(`$JS.API.STREAM.DELETE.KV_${store.name}_ledger`, '', { timeout: 5000 })).string()) as {
          success?: boolean;
        };
        expect(res.success).toBe(true);
        return fakeRenderResult(req);
      };
      const res = await call('/enrich?url=ledger.test', key, undefined, edge.app);
      renderWith = undefined;
      expect(res.statusCode).toBe(503);
      // Generic: the store's own error text (which can name hosts) stays in the log.
      expect(ErrorEnvelopeSchema.parse(res.json()).error).toBe('Temporarily unavailable, retry in a few seconds: the key and credit store did not answer');
      const held = await edge.getKey(id);
      expect(held.credits_used).toBe(3); // held by the open reservation, not kept
      expect(held.pending).toHaveLength(1);
      await edge.store.init(); // the ledger is back
      expect(await edge.store.sweepExpiredReservations(held.pending[0]!.expiresAt)).toEqual({ refunded: 1, credits: 3 });
      expect(await edge.getKey(id)).toMatchObject({ credits_used: 0, pending: [] });
    } finally {
      await edge.close();
    }
  });
});
