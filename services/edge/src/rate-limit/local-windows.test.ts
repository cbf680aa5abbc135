/**
 * The per-instance window cache against the real KV store on real NATS: two instances (two
 * connections, one bucket) as two edge replicas would be.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { KvStore } from '../store/kv.ts';
import type { Store } from '../store/port.ts';
import { LocalWindows } from './local-windows.ts';

let nc: NatsConnection;
let other: NatsConnection;
beforeAll(async () => {
  nc = await connect({ servers: inject('natsUrl') });
  other = await connect({ servers: inject('natsUrl') });
});
afterAll(async () => {
  await nc?.close();
  await other?.close();
});

/** Two stores on one bucket over two connections, and a count of the window updates each makes. */
async function twoStores(): Promise<{ a: Store; b: Store; updates: () => number }> {
  const name = `lw_${randomUUID().slice(0, 8)}`;
  let updates = 0;
  const counted = (s: KvStore): Store =>
    new Proxy(s, {
      get(target, prop) {
        const v: unknown = Reflect.get(target, prop);
        if (prop === 'hitWindow') {
          return (...args: Parameters<Store['hitWindow']>) => {
            updates += 1;
            return target.hitWindow(...args);
          };
        }
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
  const a = new KvStore({ nc, name });
  const b = new KvStore({ nc: other, name });
  await a.init();
  await b.init();
  return { a: counted(a), b: counted(b), updates: () => updates };
}

const MINUTE = 60_000;
const start = Math.floor(Date.now() / MINUTE) * MINUTE + 1000;

describe('LocalWindows', () => {
  it('400 simultaneous hits over two instances: exactly the limit admitted, in far fewer store updates than hits', async () => {
    const { a, b, updates } = await twoStores();
    const [wa, wb] = [new LocalWindows(a), new LocalWindows(b)];
    const hits = await Promise.all(Array.from({ length: 400 }, (_, i) => (i % 2 ? wa : wb).hit('ip:198.51.100.7', 200, start, MINUTE)));
    expect(hits.filter((h) => h.allowed).length).toBe(200);
    expect(hits.filter((h) => !h.allowed).every((h) => h.retryAfterMs > 0 && h.remaining === 0)).toBe(true);
    expect(updates()).toBeLessThan(100);
  });

  it('a hot subject over many buckets: never more than the limit in any 60 s, across instances, with leases', async () => {
    const { a, b, updates } = await twoStores();
    const [wa, wb] = [new LocalWindows(a), new LocalWindows(b)];
    const limit = 100;
    const admitted: number[] = [];
    let hits = 0;
    // Both instances hit every 100 ms of (injected) time for three minutes: 3600 hits for 100 a minute.
    for (let t = start; t < start + 3 * MINUTE; t += 100) {
      const [x, y] = await Promise.all([wa.hit('key:hot', limit, t, MINUTE), wb.hit('key:hot', limit, t, MINUTE)]);
      hits += 2;
      for (const h of [x, y]) if (h.allowed) admitted.push(t);
    }
    for (const t of admitted) expect(admitted.filter((u) => u >= t && u < t + MINUTE).length).toBeLessThanOrEqual(limit);
    // The limit is used (leases left unused when a bucket ends are at most 1/20 of it per instance).
    expect(admitted.filter((u) => u < start + MINUTE).length).toBeGreaterThanOrEqual(limit * 0.9);
    expect(updates()).toBeLessThan(hits / 4);
  });

  it('a burst over a bucket boundary, hits stamped before it still arriving after: the leases keep growing', async () => {
    const { a, updates } = await twoStores();
    const w = new LocalWindows(a);
    // Requests stamped in the last moment of one bucket wait on a lease with requests stamped in the
    // next, as when a burst meets a turning bucket on a busy machine. 400 hits at 10 000 a minute
    // (leases up to 500) need about ten leases; a lease moved back to the older bucket by a late
    // request would throw away the newer one's and start again from the last bucket's demand.
    const boundary = start - 1000 + 5000 * 4;
    const hits = await Promise.all(Array.from({ length: 400 }, (_, i) => w.hit('ip:198.51.100.9', 10_000, i % 2 ? boundary - 1 : boundary + i, MINUTE)));
    expect(hits.every((h) => h.allowed)).toBe(true);
    expect(updates()).toBeLessThan(20);
  });

  it('a refused subject is refused locally until the store would admit again, with no store call', async () => {
    const { a, updates } = await twoStores();
    const w = new LocalWindows(a);
    expect((await w.hit('key:small', 2, start, MINUTE)).allowed).toBe(true);
    expect((await w.hit('key:small', 2, start, MINUTE)).allowed).toBe(true);
    const refused = await w.hit('key:small', 2, start + 1000, MINUTE);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    const calls = updates();
    for (let i = 0; i < 100; i++) {
      const again = await w.hit('key:small', 2, start + 2000, MINUTE);
      expect(again.allowed).toBe(false);
      expect(again.retryAfterMs).toBe(refused.retryAfterMs - 1000);
    }
    expect(updates()).toBe(calls);
    // Once the first bucket has left the window, the store is asked again and admits.
    expect((await w.hit('key:small', 2, start + 1000 + refused.retryAfterMs, MINUTE)).allowed).toBe(true);
    expect(updates()).toBe(calls + 1);
  });

  it('below 20 per minute every hit is its own store update (no lease), as exact as the store itself', async () => {
    const { a, b, updates } = await twoStores();
    const [wa, wb] = [new LocalWindows(a), new LocalWindows(b)];
    const hits = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? wa : wb).hit('key:few', 3, start, MINUTE)));
    expect(
      hits
        .filter((h) => h.allowed)
        .map((h) => h.remaining)
        .sort(),
    ).toEqual([0, 1, 2]);
    // 3 admitted, then at most one refusal learnt per instance.
    expect(updates()).toBeLessThanOrEqual(5);
  });

  it("a changed limit (a key's rate_limit edited) is asked of the store at once", async () => {
    const { a } = await twoStores();
    const w = new LocalWindows(a);
    expect((await w.hit('key:edited', 1, start, MINUTE)).allowed).toBe(true);
    expect((await w.hit('key:edited', 1, start, MINUTE)).allowed).toBe(false);
    expect(await w.hit('key:edited', 5, start, MINUTE)).toMatchObject({ allowed: true, remaining: 3 });
  });

  it('a store failure reaches the caller and the next hit asks again', async () => {
    const { a } = await twoStores();
    let fail = true;
    const flaky = new Proxy(a, {
      get(target, prop) {
        const v: unknown = Reflect.get(target, prop);
        if (prop === 'hitWindow' && fail) {
          return async () => {
            fail = false;
            throw new Error('the key and credit store did not answer');
          };
        }
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const w = new LocalWindows(flaky);
    await expect(w.hit('ip:203.0.113.1', 100, start, MINUTE)).rejects.toThrow('did not answer');
    expect((await w.hit('ip:203.0.113.1', 100, start, MINUTE)).allowed).toBe(true);
  });
});
