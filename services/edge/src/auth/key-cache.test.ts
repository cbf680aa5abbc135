import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../store/port.ts';
import { KeyCache, type KeyDirectory } from './key-cache.ts';

const record = (over: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id: 'key_a',
  name: 'a',
  hash: 'h'.repeat(64),
  credits_limit: 10,
  credits_used: 0,
  rate_limit: 60,
  revoked: false,
  created_at: '2026-01-01T00:00:00.000Z',
  pending: [],
  ...over,
});

/** A directory that counts its reads and answers from a map the test changes. */
function directory(): KeyDirectory & { reads: number; records: Map<string, ApiKeyRecord>; release?: () => void; hold: boolean } {
  const d = {
    reads: 0,
    records: new Map<string, ApiKeyRecord>(),
    hold: false,
    release: undefined as (() => void) | undefined,
    async findKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
      d.reads++;
      if (d.hold) await new Promise<void>((r) => (d.release = r));
      return d.records.get(hash) ?? null;
    },
  };
  return d;
}

describe('KeyCache', () => {
  it('reads a key once per maxAgeMs; a change (new rate limit, revocation) shows after that', async () => {
    let now = 1_000;
    const store = directory();
    store.records.set('k1', record({ rate_limit: 60 }));
    const keys = new KeyCache(store, { maxAgeMs: 5_000, now: () => now });
    for (let i = 0; i < 100; i++) expect((await keys.findKeyByHash('k1'))?.rate_limit).toBe(60);
    expect(store.reads).toBe(1);
    store.records.set('k1', record({ rate_limit: 5, revoked: true }));
    now += 4_999;
    expect((await keys.findKeyByHash('k1'))?.rate_limit).toBe(60);
    now += 1;
    expect(await keys.findKeyByHash('k1')).toMatchObject({ rate_limit: 5, revoked: true });
    expect(store.reads).toBe(2);
  });

  it('does not remember unknown keys: a key created a moment later works at once', async () => {
    const store = directory();
    const keys = new KeyCache(store, { maxAgeMs: 5_000 });
    expect(await keys.findKeyByHash('new')).toBeNull();
    store.records.set('new', record());
    expect(await keys.findKeyByHash('new')).toMatchObject({ id: 'key_a' });
    expect(store.reads).toBe(2);
  });

  it('lookups of one key that miss together share one read', async () => {
    const store = directory();
    store.records.set('k1', record());
    store.hold = true;
    const keys = new KeyCache(store, { maxAgeMs: 5_000 });
    const all = Array.from({ length: 50 }, () => keys.findKeyByHash('k1'));
    await new Promise((r) => setImmediate(r));
    store.release?.();
    expect((await Promise.all(all)).every((r) => r?.id === 'key_a')).toBe(true);
    expect(store.reads).toBe(1);
  });

  it('a failed read is not remembered; maxAgeMs 0 reads the store every time', async () => {
    let fail = true;
    const flaky: KeyDirectory = {
      findKeyByHash: async () => {
        if (fail) throw new Error('store down');
        return record();
      },
    };
    const keys = new KeyCache(flaky, { maxAgeMs: 5_000 });
    await expect(keys.findKeyByHash('k1')).rejects.toThrow('store down');
    fail = false;
    expect(await keys.findKeyByHash('k1')).toMatchObject({ id: 'key_a' });

    const store = directory();
    store.records.set('k1', record());
    const uncached = new KeyCache(store, { maxAgeMs: 0 });
    for (let i = 0; i < 3; i++) await uncached.findKeyByHash('k1');
    expect(store.reads).toBe(3);
  });
});
