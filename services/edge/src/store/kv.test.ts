import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { runStoreConformance } from '../../../../test/support/store-conformance.ts';
import { KvStore } from './kv.ts';

let nc: NatsConnection;
beforeAll(async () => {
  nc = await connect({ servers: inject('natsUrl') });
});
afterAll(async () => {
  await nc?.close();
});

runStoreConformance('NATS JetStream KV', {
  async open() {
    // A unique bucket prefix per test: tests never see each other's keys or windows.
    const store = new KvStore({ nc, name: `conf_${randomUUID().slice(0, 8)}` });
    await store.init();
    return store;
  },
});

it('KV: hits batched per instance stay exact across two instances on one bucket', async () => {
  const name = `conf_${randomUUID().slice(0, 8)}`;
  const other = await connect({ servers: inject('natsUrl') });
  try {
    const a = new KvStore({ nc, name });
    const b = new KvStore({ nc: other, name });
    await a.init();
    await b.init();
    const now = Math.floor(Date.now() / 60_000) * 60_000 + 1000;
    const hits = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).hitWindow('ip:203.0.113.9', 37, now, 60_000)));
    expect(hits.filter((h) => h.allowed).length).toBe(37);
    // Each admitted hit saw a distinct count: decided one after another, never two on the same value.
    expect(new Set(hits.filter((h) => h.allowed).map((h) => h.count)).size).toBe(37);
    expect(hits.filter((h) => !h.allowed).every((h) => h.remaining === 0 && h.retryAfterMs > 0)).toBe(true);
  } finally {
    await other.close();
  }
});

it('KV: a burst straddling a minute edge, split over two instances, never passes the limit within any 60 s', async () => {
  const name = `conf_${randomUUID().slice(0, 8)}`;
  const other = await connect({ servers: inject('natsUrl') });
  try {
    const a = new KvStore({ nc, name });
    const b = new KvStore({ nc: other, name });
    await a.init();
    await b.init();
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const limit = 10;
    const admitted: number[] = [];
    // Every 2.5 s from 50 s to 130 s, 8 simultaneous hits per tick spread over both instances.
    for (let t = minute + 50_000; t <= minute + 130_000; t += 2_500) {
      const hits = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).hitWindow('key:straddle', limit, t, 60_000)));
      for (const h of hits) if (h.allowed) admitted.push(t);
    }
    for (const t of admitted) expect(admitted.filter((u) => u >= t && u < t + 60_000).length).toBeLessThanOrEqual(limit);
    // 10 at 50-52.5 s; the 50 s bucket leaves at 115 s, the 52.5 s hits' bucket (50-55 s) too: 10 more from 115 s.
    expect(admitted.length).toBe(2 * limit);
    expect(admitted.filter((t) => t < minute + 115_000).length).toBe(limit);
  } finally {
    await other.close();
  }
});

async function jsApi(op: string, stream: string, body = ''): Promise<{ config?: { max_age?: number }; error?: unknown }> {
  return JSON.parse((await nc.request(`$JS.API.STREAM.${op}.${stream}`, body, { timeout: 5000 })).string()) as {
    config?: { max_age?: number };
    error?: unknown;
  };
}

describe('KV: ledger first, so a charge never outlives a failed settle', () => {
  it('the ledger cannot be written: the charge fails, nothing is charged, and the sweeper refunds once', async () => {
    const name = `conf_${randomUUID().slice(0, 8)}`;
    const store = new KvStore({ nc, name });
    await store.init();
    await store.createKey({ id: 'key_a', name: 'a', hash: 'a'.repeat(64), credits_limit: 10, rate_limit: 60 });
    const requestId = randomUUID();
    await store.reserveCredits({ keyId: 'key_a', requestId, amount: 3, endpoint: 'enrich', expiresAt: 1000 });
    expect((await jsApi('DELETE', `KV_${name}_ledger`)).error).toBeUndefined();
    await expect(store.settleCredits({ keyId: 'key_a', requestId, outcome: 'charge' })).rejects.toThrow();
    // Not charged: the reservation is still open (its credits held, not kept).
    expect(await store.getKey('key_a')).toMatchObject({ credits_used: 3, pending: [{ requestId }] });
    await store.init(); // the ledger is back
    expect(await store.sweepExpiredReservations(2000)).toEqual({ refunded: 1, credits: 3 });
    expect(await store.sweepExpiredReservations(2000)).toEqual({ refunded: 0, credits: 0 });
    expect(await store.getKey('key_a')).toMatchObject({ credits_used: 0, pending: [] });
  });

  it('the ledger says charge but the key record was not updated: the sweeper tidies without a refund; a refund revokes it', async () => {
    const name = `conf_${randomUUID().slice(0, 8)}`;
    const store = new KvStore({ nc, name });
    await store.init();
    await store.createKey({ id: 'key_b', name: 'b', hash: 'b'.repeat(64), credits_limit: 10, rate_limit: 60 });
    const charged = randomUUID();
    const revoked = randomUUID();
    await store.reserveCredits({ keyId: 'key_b', requestId: charged, amount: 3, endpoint: 'enrich', expiresAt: 1000 });
    await store.reserveCredits({ keyId: 'key_b', requestId: revoked, amount: 2, endpoint: 'brand', expiresAt: 1_000_000_000_000_000 });
    // The state a crash (or a failed key update) right after the ledger commit leaves behind.
    const ledger = await new Kvm(nc).open(`${name}_ledger`);
    for (const [id, amount] of [
      [charged, 3],
      [revoked, 2],
    ] as const) {
      await ledger.put(`r.${id}`, JSON.stringify({ keyId: 'key_b', amount, endpoint: 'enrich', outcome: 'charge', at: new Date().toISOString() }));
    }
    expect(await store.sweepExpiredReservations(2000)).toEqual({ refunded: 0, credits: 0 });
    expect(await store.getKey('key_b')).toMatchObject({ credits_used: 5, pending: [{ requestId: revoked }] });
    // The client got no 200 for `revoked` (the commit was reported failed): the refund wins.
    expect(await store.settleCredits({ keyId: 'key_b', requestId: revoked, outcome: 'refund' })).toMatchObject({ applied: true, credits_used: 3 });
    expect((await ledger.get(`r.${revoked}`))?.json<{ outcome: string }>().outcome).toBe('refund');
  });
});

it("KV: retention is each bucket's max_age, applied to buckets created earlier without one", async () => {
  const name = `conf_${randomUUID().slice(0, 8)}`;
  const kvm = new Kvm(nc);
  await kvm.create(`${name}_usage`, { history: 1 });
  await kvm.create(`${name}_ledger`, { history: 1 });
  expect((await jsApi('INFO', `KV_${name}_usage`)).config?.max_age).toBe(0);
  const store = new KvStore({ nc, name, retention: { usageMs: 3 * 86_400_000, ledgerMs: 86_400_000 } });
  await store.init();
  expect((await jsApi('INFO', `KV_${name}_usage`)).config?.max_age).toBe(3 * 86_400_000 * 1e6);
  expect((await jsApi('INFO', `KV_${name}_ledger`)).config?.max_age).toBe(86_400_000 * 1e6);
  expect((await jsApi('INFO', `KV_${name}_idempotency`)).config?.max_age).toBe(86_400_000 * 1e6);
  // Defaults: 90 days usage, 7 days ledger.
  const fresh = `conf_${randomUUID().slice(0, 8)}`;
  await new KvStore({ nc, name: fresh }).init();
  expect((await jsApi('INFO', `KV_${fresh}_usage`)).config?.max_age).toBe(90 * 86_400_000 * 1e6);
  expect((await jsApi('INFO', `KV_${fresh}_ledger`)).config?.max_age).toBe(7 * 86_400_000 * 1e6);
});
