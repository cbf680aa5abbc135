import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { runStoreConformance } from './conformance.ts';
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
