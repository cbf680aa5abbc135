/**
 * The conformance suite against MongoDB: MONGODB_URI when set, else a throwaway container through
 * testcontainers when a container engine is available, else skipped with the reason printed.
 */
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { runStoreConformance } from '../../../../test/support/store-conformance.ts';
import { MongoStore } from './mongo.ts';
import { startMongo } from '../../../../test/support/mongo.ts';

const mongo = await startMongo();

if (typeof mongo === 'string') {
  describe('Store conformance: MongoDB', () => {
    it.skip(`skipped: ${mongo}; runs when MONGODB_URI is set or a container runtime (Docker) is available`, () => {});
  });
  console.warn(`[edge] MongoDB store conformance skipped: ${mongo}`);
} else {
  afterAll(async () => {
    await mongo.stop();
  });
  runStoreConformance('MongoDB', {
    async open() {
      // A database per test: indexes are created by init(), nothing leaks between tests.
      const store = new MongoStore({ uri: mongo.uri, name: `conf_${randomUUID().slice(0, 8)}` });
      await store.init();
      return store;
    },
  });

  it('MongoDB: retention is TTL indexes (ledger after the settle, usage, idempotency), changed in place', async () => {
    const name = `conf_${randomUUID().slice(0, 8)}`;
    const first = new MongoStore({ uri: mongo.uri, name, retention: { usageMs: 90 * 86_400_000, ledgerMs: 7 * 86_400_000 } });
    await first.init();
    await first.close();
    // A restart with other settings changes the existing indexes (collMod), it does not fail.
    const second = new MongoStore({ uri: mongo.uri, name, retention: { usageMs: 30 * 86_400_000, ledgerMs: 2 * 86_400_000 } });
    await second.init();
    await second.close();
    const client = new MongoClient(mongo.uri);
    try {
      const ttl = async (coll: string, field: string) =>
        (await client.db(name).collection(coll).indexes()).find((i) => JSON.stringify(i.key) === JSON.stringify({ [field]: 1 }))?.expireAfterSeconds;
      expect(await ttl('usage', 'at')).toBe(30 * 86_400);
      expect(await ttl('ledger', 'at')).toBe(2 * 86_400);
      expect(await ttl('idempotency', 'createdAt')).toBe(86_400);
      expect(await ttl('rate_windows', 'expiresAt')).toBe(0);
    } finally {
      await client.close();
    }
  });
}
