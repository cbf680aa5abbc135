/**
 * What every BatchStore must do (services/edge/src/batch/kv-store.test.ts and mongo-store.test.ts run it): records with
 * atomic read-modify-write under concurrency (answers counted exactly once, one instance ends the
 * batch), first-answer-wins results, and one webhook secret per key under concurrent first use.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BatchItemResult } from '@enrich/shared/contracts';
import { countAnswer, emptyBitmap, endEarly, type BatchRecord } from '../../services/edge/src/batch/record.ts';
import type { BatchStore } from '../../services/edge/src/batch/store.ts';

export interface BatchStoreTarget {
  /** A fresh, initialised store for one test. */
  open(): Promise<BatchStore & { close?(): Promise<void> }>;
}

function record(total: number): BatchRecord {
  return {
    id: `bat_${randomBytes(12).toString('hex')}`,
    keyId: `key_${randomBytes(8).toString('hex')}`,
    endpoint: 'classify',
    total,
    status: 'queued',
    createdAt: new Date().toISOString(),
    startedAt: null,
    finishedAt: null,
    maxAge: null,
    webhook: null,
    answered: emptyBitmap(total),
    succeeded: 0,
    failed: 0,
    creditsCharged: 0,
    link: null,
    expiresAt: Date.now() + 3_600_000,
  };
}

const answer = (index: number, state: 'succeeded' | 'failed'): BatchItemResult => ({
  index,
  state,
  status: state === 'succeeded' ? 200 : 502,
  credits: state === 'succeeded' ? 1 : 0,
});

export function runBatchStoreConformance(name: string, target: BatchStoreTarget): void {
  describe(`BatchStore conformance: ${name}`, () => {
    async function withStore(fn: (store: BatchStore) => Promise<void>): Promise<void> {
      const store = await target.open();
      try {
        await fn(store);
      } finally {
        await store.close?.();
      }
    }

    it('creates, reads and answers null for unknown or malformed ids', () =>
      withStore(async (store) => {
        const rec = record(3);
        await store.create(rec);
        expect(await store.get(rec.id)).toEqual(rec);
        expect(await store.get('bat_000000000000000000000000')).toBeNull();
        expect(await store.get('../etc')).toBeNull();
        expect((await store.update('bat_000000000000000000000000', () => null)).record).toBeNull();
      }));

    it('counts 60 concurrent answers (each delivered twice) exactly once; exactly one update ends the batch', () =>
      withStore(async (store) => {
        const rec = record(60);
        await store.create(rec);
        const updates = await Promise.all(
          Array.from({ length: 120 }, (_, i) =>
            store.update(rec.id, (cur) => countAnswer(cur, answer(i % 60, i % 60 < 45 ? 'succeeded' : 'failed'), Date.now(), 3_600_000)),
          ),
        );
        expect(updates.filter((u) => u.changed)).toHaveLength(60);
        expect(updates.filter((u) => u.changed && u.record?.status === 'done')).toHaveLength(1);
        expect(await store.get(rec.id)).toMatchObject({ status: 'done', succeeded: 45, failed: 15, creditsCharged: 45 });
        expect((await store.update(rec.id, (cur) => endEarly(cur, 'cancelled', Date.now(), 1000))).changed).toBe(false);
      }));

    it('keeps the first answer of an item; reads answers back by index, null where none', () =>
      withStore(async (store) => {
        const rec = record(4);
        const first = { ...answer(1, 'succeeded'), requestId: '00000000-0000-8000-8000-000000000001' };
        const results = await Promise.all([
          store.putResult(rec.id, first, Date.now() + 60_000),
          store.putResult(rec.id, { ...answer(1, 'failed'), requestId: '00000000-0000-8000-8000-000000000002' }, Date.now() + 60_000),
        ]);
        expect(results[0]).toEqual(results[1]);
        expect(await store.getResults(rec.id, [0, 1, 3])).toEqual([null, results[0], null]);
      }));

    it('gives a key one webhook secret under concurrent first use; rotate replaces it; create:false never creates', () =>
      withStore(async (store) => {
        const keyId = `key_${randomBytes(8).toString('hex')}`;
        expect(await store.webhookSecret(keyId, { create: false })).toBeNull();
        const secrets = await Promise.all(Array.from({ length: 10 }, () => store.webhookSecret(keyId)));
        expect(new Set(secrets).size).toBe(1);
        expect(secrets[0]).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
        const rotated = await store.webhookSecret(keyId, { rotate: true });
        expect(rotated).not.toBe(secrets[0]);
        expect(await store.webhookSecret(keyId)).toBe(rotated);
      }));

    it('removes a batch (a failed submission)', () =>
      withStore(async (store) => {
        const rec = record(1);
        await store.create(rec);
        await store.remove(rec.id);
        expect(await store.get(rec.id)).toBeNull();
      }));
  });
}
