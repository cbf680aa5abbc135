import { describe, expect, it } from 'vitest';
import type { UsageEntry } from './store/port.ts';
import { USAGE_BATCH_MAX, UsageLog } from './usage-log.ts';

const entry = (i: number): UsageEntry => ({
  requestId: `r${i}`,
  keyId: `key_${i % 3}`,
  endpoint: 'classify',
  status: 429,
  credits: 0,
  durationMs: 1,
  timestamp: new Date(1_700_000_000_000 + i).toISOString(),
});

function recorder(fail = false): { batches: UsageEntry[][]; recordUsage(e: readonly UsageEntry[]): Promise<void> } {
  const r = {
    batches: [] as UsageEntry[][],
    async recordUsage(e: readonly UsageEntry[]): Promise<void> {
      await new Promise((res) => setTimeout(res, 5));
      if (fail) throw new Error('store down');
      r.batches.push([...e]);
    },
  };
  return r;
}

describe('UsageLog', () => {
  it('gathers the entries of flushMs into one write; flush() writes what waits and waits for the writes', async () => {
    const store = recorder();
    const log = new UsageLog(store, { flushMs: 60_000, onError: () => undefined });
    for (let i = 0; i < 10; i++) log.add(entry(i));
    expect(store.batches).toEqual([]);
    await log.flush();
    expect(store.batches).toHaveLength(1);
    expect(store.batches[0]!.map((e) => e.requestId)).toEqual(Array.from({ length: 10 }, (_, i) => `r${i}`));
    await log.flush();
    expect(store.batches).toHaveLength(1);
  });

  it('writes by itself after flushMs, and at once when USAGE_BATCH_MAX entries wait', async () => {
    const store = recorder();
    const log = new UsageLog(store, { flushMs: 30, onError: () => undefined });
    log.add(entry(1));
    log.add(entry(2));
    await new Promise((r) => setTimeout(r, 120));
    expect(store.batches.map((b) => b.length)).toEqual([2]);

    const big = recorder();
    const full = new UsageLog(big, { flushMs: 60_000, onError: () => undefined });
    for (let i = 0; i < USAGE_BATCH_MAX + 1; i++) full.add(entry(i));
    await new Promise((r) => setTimeout(r, 50));
    expect(big.batches.map((b) => b.length)).toEqual([USAGE_BATCH_MAX]);
    await full.flush();
    expect(big.batches.map((b) => b.length)).toEqual([USAGE_BATCH_MAX, 1]);
  });

  it('a failed write is reported with its entry count and does not fail flush()', async () => {
    const errors: Array<[string, number]> = [];
    const log = new UsageLog(recorder(true), { flushMs: 60_000, onError: (err, n) => errors.push([(err as Error).message, n]) });
    log.add(entry(1));
    log.add(entry(2));
    await log.flush();
    expect(errors).toEqual([['store down', 2]]);
  });

  it('flushMs 0 writes each entry as it comes', async () => {
    const store = recorder();
    const log = new UsageLog(store, { flushMs: 0, onError: () => undefined });
    log.add(entry(1));
    log.add(entry(2));
    await log.flush();
    expect(store.batches.map((b) => b.length)).toEqual([1, 1]);
  });
});
