/**
 * The one conformance suite every Store implementation must pass (kv.test.ts and mongo.test.ts run
 * it). It pins the behaviour the edge relies on: atomic credit reservation under concurrency,
 * idempotent settlement by requestId, expiry sweeps, and bucketed sliding windows that are exact under
 * concurrency.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { NewApiKey, Store } from '../../services/edge/src/store/port.ts';

export interface ConformanceTarget {
  /** A fresh, initialised, empty store for one test. */
  open(): Promise<Store>;
}

let seq = 0;
function newKey(overrides: Partial<NewApiKey> = {}): NewApiKey {
  seq += 1;
  const id = `key_conf${seq}${randomUUID().slice(0, 8)}`;
  const hash = randomUUID().replace(/-/g, '').padEnd(64, 'a').slice(0, 64);
  return { id, name: `customer ${seq}`, hash, credits_limit: 10, rate_limit: 60, ...overrides };
}

const HOUR = 3_600_000;

export function runStoreConformance(name: string, target: ConformanceTarget): void {
  describe(`Store conformance: ${name}`, () => {
    async function withStore(fn: (store: Store) => Promise<void>): Promise<void> {
      const store = await target.open();
      try {
        await fn(store);
      } finally {
        await store.close();
      }
    }

    it('creates keys and finds them by id and by hash, never by a wrong hash', () =>
      withStore(async (store) => {
        const k = newKey({ credits_limit: 500, rate_limit: 30 });
        const created = await store.createKey(k);
        expect(created).toMatchObject({ id: k.id, credits_limit: 500, credits_used: 0, rate_limit: 30, revoked: false, pending: [] });
        expect((await store.getKey(k.id))?.hash).toBe(k.hash);
        expect((await store.findKeyByHash(k.hash))?.id).toBe(k.id);
        expect(await store.findKeyByHash('0'.repeat(64))).toBeNull();
        expect(await store.getKey('key_missing')).toBeNull();
        const other = newKey();
        await store.createKey(other);
        expect((await store.listKeys()).map((r) => r.id).sort()).toEqual([k.id, other.id].sort());
      }));

    it('updates limits and revokes', () =>
      withStore(async (store) => {
        const k = newKey();
        await store.createKey(k);
        expect(await store.updateKeyLimits(k.id, { credits_limit: 99 })).toMatchObject({ credits_limit: 99, rate_limit: 60 });
        expect(await store.updateKeyLimits(k.id, { rate_limit: 5 })).toMatchObject({ credits_limit: 99, rate_limit: 5 });
        expect(await store.updateKeyLimits('key_missing', { rate_limit: 5 })).toBeNull();
        expect((await store.revokeKey(k.id))?.revoked).toBe(true);
        const r = await store.reserveCredits({ keyId: k.id, requestId: randomUUID(), amount: 1, endpoint: 'classify', expiresAt: Date.now() + HOUR });
        expect(r).toMatchObject({ ok: false, reason: 'revoked' });
        expect(
          await store.reserveCredits({ keyId: 'key_missing', requestId: randomUUID(), amount: 1, endpoint: 'classify', expiresAt: Date.now() + HOUR }),
        ).toMatchObject({ ok: false, reason: 'unknown_key' });
      }));

    it('reserves up to the limit exactly and refuses the reservation that would pass it', () =>
      withStore(async (store) => {
        const k = newKey({ credits_limit: 5 });
        await store.createKey(k);
        const at = Date.now() + HOUR;
        expect(await store.reserveCredits({ keyId: k.id, requestId: randomUUID(), amount: 3, endpoint: 'enrich', expiresAt: at })).toMatchObject({
          ok: true,
          credits_used: 3,
          credits_limit: 5,
        });
        expect(await store.reserveCredits({ keyId: k.id, requestId: randomUUID(), amount: 3, endpoint: 'enrich', expiresAt: at })).toMatchObject({
          ok: false,
          reason: 'insufficient_credits',
          credits_used: 3,
        });
        expect(await store.reserveCredits({ keyId: k.id, requestId: randomUUID(), amount: 2, endpoint: 'brand', expiresAt: at })).toMatchObject({
          ok: true,
          credits_used: 5,
        });
        expect(await store.reserveCredits({ keyId: k.id, requestId: randomUUID(), amount: 1, endpoint: 'classify', expiresAt: at })).toMatchObject({
          ok: false,
          reason: 'insufficient_credits',
          credits_used: 5,
        });
      }));

    it('settles idempotently: charge keeps, refund returns, a second settle changes nothing', () =>
      withStore(async (store) => {
        const k = newKey({ credits_limit: 10 });
        await store.createKey(k);
        const a = randomUUID();
        const b = randomUUID();
        await store.reserveCredits({ keyId: k.id, requestId: a, amount: 3, endpoint: 'enrich', expiresAt: Date.now() + HOUR });
        await store.reserveCredits({ keyId: k.id, requestId: b, amount: 2, endpoint: 'brand', expiresAt: Date.now() + HOUR });
        // A retried reserve of the same request is not charged again.
        expect(await store.reserveCredits({ keyId: k.id, requestId: a, amount: 3, endpoint: 'enrich', expiresAt: Date.now() + HOUR })).toMatchObject({
          ok: true,
          duplicate: true,
          credits_used: 5,
        });
        expect(await store.settleCredits({ keyId: k.id, requestId: a, outcome: 'charge' })).toMatchObject({ applied: true, credits_used: 5 });
        expect(await store.settleCredits({ keyId: k.id, requestId: b, outcome: 'refund' })).toMatchObject({ applied: true, credits_used: 3 });
        expect(await store.settleCredits({ keyId: k.id, requestId: b, outcome: 'refund' })).toMatchObject({ applied: false, credits_used: 3 });
        expect(await store.settleCredits({ keyId: k.id, requestId: a, outcome: 'refund' })).toMatchObject({ applied: false, credits_used: 3 });
        // Settled requests stay settled: reserving the same requestId again is a no-op.
        expect(await store.reserveCredits({ keyId: k.id, requestId: a, amount: 3, endpoint: 'enrich', expiresAt: Date.now() + HOUR })).toMatchObject({
          ok: true,
          duplicate: true,
          credits_used: 3,
        });
        expect((await store.getKey(k.id))?.pending).toEqual([]);
      }));

    it('sweeps only expired reservations, once, even when two sweepers race, and leaves other keys alone', () =>
      withStore(async (store) => {
        const k = newKey({ credits_limit: 10 });
        const bystander = newKey({ credits_limit: 10 });
        await store.createKey(k);
        await store.createKey(bystander);
        const now = Date.now();
        const expired = randomUUID();
        await store.reserveCredits({ keyId: k.id, requestId: expired, amount: 3, endpoint: 'enrich', expiresAt: now - 1 });
        await store.reserveCredits({ keyId: k.id, requestId: randomUUID(), amount: 1, endpoint: 'classify', expiresAt: now + HOUR });
        await store.reserveCredits({ keyId: bystander.id, requestId: randomUUID(), amount: 2, endpoint: 'brand', expiresAt: now + HOUR });
        const [s1, s2] = await Promise.all([store.sweepExpiredReservations(now), store.sweepExpiredReservations(now)]);
        expect(s1.credits + s2.credits).toBe(3);
        expect(s1.refunded + s2.refunded).toBe(1);
        expect((await store.getKey(k.id))?.credits_used).toBe(1);
        expect((await store.getKey(bystander.id))?.credits_used).toBe(2);
        // The late settle of a swept reservation neither charges nor refunds again.
        expect(await store.settleCredits({ keyId: k.id, requestId: expired, outcome: 'refund' })).toMatchObject({ applied: false, credits_used: 1 });
        expect(await store.settleCredits({ keyId: k.id, requestId: expired, outcome: 'charge' })).toMatchObject({ applied: false, credits_used: 1 });
      }));

    it('200 concurrent reservations: exactly the affordable number succeed and credits_used ends at the sum charged', () =>
      withStore(async (store) => {
        const k = newKey({ credits_limit: 301 });
        await store.createKey(k);
        const at = Date.now() + HOUR;
        const ids = Array.from({ length: 200 }, () => randomUUID());
        const results = await Promise.all(
          ids.map((requestId) => store.reserveCredits({ keyId: k.id, requestId, amount: 3, endpoint: 'enrich', expiresAt: at })),
        );
        // 301 credits afford floor(301 / 3) = 100 requests of 3, whatever the interleaving.
        expect(results.filter((r) => r.ok).length).toBe(100);
        expect(results.filter((r) => !r.ok && r.reason === 'insufficient_credits').length).toBe(100);
        const key = await store.getKey(k.id);
        expect(key?.credits_used).toBe(300);
        expect(key?.pending.length).toBe(100);
        // Settling all of them concurrently, every other one refunded, ends at exactly what was charged.
        const reserved = ids.filter((_, i) => results[i]?.ok);
        await Promise.all(reserved.map((requestId, i) => store.settleCredits({ keyId: k.id, requestId, outcome: i % 2 === 0 ? 'charge' : 'refund' })));
        const after = await store.getKey(k.id);
        expect(after?.credits_used).toBe(150);
        expect(after?.pending).toEqual([]);
      }));

    it('sliding window: exactly `limit` of 200 concurrent hits pass, rejections change nothing and say when to retry', () =>
      withStore(async (store) => {
        // 15 s into a minute: the hits fall in the bucket [15 s, 20 s), which counts until 80 s.
        const minute = Math.floor(Date.now() / 60_000) * 60_000;
        const now = minute + 15_000;
        const subject = `key:${randomUUID()}`;
        const hits = await Promise.all(Array.from({ length: 200 }, () => store.hitWindow(subject, 37, now, 60_000)));
        expect(hits.filter((h) => h.allowed).length).toBe(37);
        const rejected = hits.find((h) => !h.allowed);
        expect(rejected).toMatchObject({ limit: 37, count: 37, remaining: 0, retryAfterMs: 65_000, resetMs: 65_000 });
        expect(await store.hitWindow(subject, 37, minute + 79_999, 60_000)).toMatchObject({ allowed: false, retryAfterMs: 1 });
        expect(await store.hitWindow(subject, 37, minute + 80_000, 60_000)).toMatchObject({ allowed: true, count: 1, remaining: 36 });
        // Separate subjects have separate windows.
        expect(await store.hitWindow(`ip:${randomUUID()}`, 1, now, 60_000)).toMatchObject({ allowed: true, remaining: 0 });
      }));

    it('sliding window lease: counts as many of the wanted hits as fit in one update, and none once full', () =>
      withStore(async (store) => {
        const now = Math.floor(Date.now() / 60_000) * 60_000 + 15_000;
        const subject = `ip:${randomUUID()}`;
        expect(await store.hitWindow(subject, 10, now, 60_000, 4)).toMatchObject({ allowed: true, granted: 4, count: 4, remaining: 6 });
        expect(await store.hitWindow(subject, 10, now + 1000, 60_000, 8)).toMatchObject({ allowed: true, granted: 6, count: 10, remaining: 0 });
        expect(await store.hitWindow(subject, 10, now + 2000, 60_000, 3)).toMatchObject({ allowed: false, granted: 0, count: 10, retryAfterMs: 63_000 });
        expect(await store.hitWindow(subject, 10, now + 2000, 60_000)).toMatchObject({ allowed: false, granted: 0 });
      }));

    it('sliding window: a burst straddling a minute edge never passes the limit within any 60 s', () =>
      withStore(async (store) => {
        const limit = 4;
        const minute = Math.floor(Date.now() / 60_000) * 60_000;
        const subject = `key:${randomUUID()}`;
        // The case: a 4/min key, hits every 5 s from 40 s to 100 s (across the edge at 60 s).
        const admitted: number[] = [];
        for (let t = minute + 40_000; t <= minute + 100_000; t += 5_000) {
          for (let i = 0; i < 2; i++) if ((await store.hitWindow(subject, limit, t, 60_000)).allowed) admitted.push(t);
        }
        for (const t of admitted) expect(admitted.filter((u) => u >= t && u < t + 60_000).length).toBeLessThanOrEqual(limit);
        expect(admitted.length).toBe(limit); // 40 s bucket counts until 105 s
        expect((await store.hitWindow(subject, limit, minute + 105_000, 60_000)).allowed).toBe(true);
      }));

    it('records usage and lists it newest first', () =>
      withStore(async (store) => {
        const k = newKey();
        await store.createKey(k);
        const base = Date.parse('2025-03-01T10:00:00.000Z');
        for (let i = 0; i < 3; i++) {
          await store.recordUsage([
            {
              requestId: randomUUID(),
              keyId: k.id,
              endpoint: 'classify',
              status: i === 1 ? 502 : 200,
              credits: i === 1 ? 0 : 1,
              durationMs: 120 + i,
              timestamp: new Date(base + i * 1000).toISOString(),
            },
          ]);
        }
        // The same entry again (a batch item's redelivery writes its answer's entry) stays one entry.
        const again = {
          requestId: randomUUID(),
          keyId: k.id,
          endpoint: 'brand',
          status: 200,
          credits: 5,
          durationMs: 119,
          timestamp: new Date(base - 1000).toISOString(),
        };
        await store.recordUsage([again]);
        await store.recordUsage([again]);
        const usage = await store.listUsage(k.id, 10);
        expect(usage.map((u) => u.durationMs)).toEqual([122, 121, 120, 119]);
        expect(usage[1]).toMatchObject({ keyId: k.id, endpoint: 'classify', status: 502, credits: 0 });
        expect(await store.listUsage(k.id, 2)).toHaveLength(2);
        expect(await store.listUsage('key_other', 10)).toEqual([]);
      }));

    it('records a batch of usage entries of several keys; listing is newest first across batches whose times overlap, exact at any limit', () =>
      withStore(async (store) => {
        const [a, b] = [newKey(), newKey()];
        await store.createKey(a);
        await store.createKey(b);
        const base = Date.parse('2025-03-02T10:00:00.000Z');
        const entry = (keyId: string, s: number) => ({
          requestId: randomUUID(),
          keyId,
          endpoint: 'screenshot',
          status: 429,
          credits: 0,
          durationMs: s,
          timestamp: new Date(base + s * 1000).toISOString(),
        });
        // Two batches (two edge instances, say) whose spans interleave: 1,4,7 and 2,3,9 s; one batch also holds b's entry.
        await store.recordUsage([entry(a.id, 1), entry(a.id, 4), entry(b.id, 5), entry(a.id, 7)]);
        const second = [entry(a.id, 2), entry(a.id, 3), entry(a.id, 9)];
        await store.recordUsage(second);
        // The same entry in a later batch again (a write retried) is still one entry.
        await store.recordUsage([second[1]!, entry(a.id, 6)]);
        expect((await store.listUsage(a.id, 100)).map((u) => u.durationMs)).toEqual([9, 7, 6, 4, 3, 2, 1]);
        for (const limit of [1, 2, 3, 4, 5]) {
          expect((await store.listUsage(a.id, limit)).map((u) => u.durationMs)).toEqual([9, 7, 6, 4, 3, 2, 1].slice(0, limit));
        }
        expect(await store.listUsage(b.id, 10)).toEqual([expect.objectContaining({ keyId: b.id, durationMs: 5, status: 429 })]);
        await store.recordUsage([]);
      }));

    it('lists the newest usage entries exactly when a recent batch also holds many old ones', () =>
      withStore(async (store) => {
        const k = newKey();
        await store.createKey(k);
        const base = Date.parse('2025-03-03T10:00:00.000Z');
        const entry = (s: number) => ({
          requestId: randomUUID(),
          keyId: k.id,
          endpoint: 'classify',
          status: 200,
          credits: 1,
          durationMs: s,
          timestamp: new Date(base + s * 1000).toISOString(),
        });
        // 40 entries written one by one at 100..139 s, then a batch at 200 s that also carries 40 entries of 0..39 s.
        await Promise.all(Array.from({ length: 40 }, (_, i) => store.recordUsage([entry(100 + i)])));
        await store.recordUsage([...Array.from({ length: 40 }, (_, i) => entry(i)), entry(200)]);
        const want = [200, ...Array.from({ length: 40 }, (_, i) => 139 - i), ...Array.from({ length: 40 }, (_, i) => 39 - i)];
        for (const limit of [1, 10, 41, 45, 81, 100]) {
          expect((await store.listUsage(k.id, limit)).map((u) => u.durationMs)).toEqual(want.slice(0, limit));
        }
      }));

    it('Idempotency-Key: one claimant wins; same parameters wait, others mismatch; the answer replays; a release frees the key', () =>
      withStore(async (store) => {
        const scope = `key_${randomUUID().slice(0, 8)}`;
        const base = { scope, key: 'order-42', fingerprint: 'fp-a', now: 1_000_000, lockMs: 30_000 };
        const claims = await Promise.all(Array.from({ length: 20 }, () => store.claimIdempotencyKey({ ...base, requestId: randomUUID() })));
        expect(claims.filter((c) => c.state === 'claimed').length).toBe(1);
        expect(claims.filter((c) => c.state === 'in_flight').length).toBe(19);
        const owner = randomUUID();
        // Another customer's identical key is another key.
        expect(await store.claimIdempotencyKey({ ...base, scope: `${scope}x`, requestId: owner })).toEqual({ state: 'claimed' });
        expect(await store.claimIdempotencyKey({ ...base, fingerprint: 'fp-b', requestId: randomUUID() })).toEqual({ state: 'mismatch' });
        // Abandoned (its edge died): taken over once the lock has passed.
        expect(await store.claimIdempotencyKey({ ...base, now: base.now + 30_000, requestId: owner })).toEqual({ state: 'claimed' });
        const answer = { status: 200, body: '{"success":true}', headers: { 'content-type': 'application/json; charset=utf-8', 'x-credits-used': '3' } };
        await store.finishIdempotencyKey({ scope, key: 'order-42', requestId: randomUUID(), answer: { ...answer, status: 418 } }); // not the owner: ignored
        await store.finishIdempotencyKey({ scope, key: 'order-42', requestId: owner, answer });
        expect(await store.claimIdempotencyKey({ ...base, now: base.now + 3_600_000, requestId: randomUUID() })).toEqual({ state: 'done', answer });
        expect(await store.claimIdempotencyKey({ ...base, fingerprint: 'fp-b', requestId: randomUUID() })).toEqual({ state: 'mismatch' });
        // Released (a retryable failure): the next request with the key runs, whatever its parameters.
        const other = randomUUID();
        expect(await store.claimIdempotencyKey({ ...base, key: 'order-43', requestId: other })).toEqual({ state: 'claimed' });
        await store.finishIdempotencyKey({ scope, key: 'order-43', requestId: other, answer: null });
        expect(await store.claimIdempotencyKey({ ...base, key: 'order-43', fingerprint: 'fp-c', requestId: randomUUID() })).toEqual({ state: 'claimed' });
      }));

    it('answers ping', () =>
      withStore(async (store) => {
        await store.ping();
      }));
  });
}
