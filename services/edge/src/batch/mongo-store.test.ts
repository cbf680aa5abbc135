/**
 * The batch store conformance suite against MongoDB: MONGODB_URI when set, else a throwaway container
 * through testcontainers when a container engine is available, else skipped with the reason printed.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, it } from 'vitest';
import { MongoBatchStore } from './mongo-store.ts';
import { runBatchStoreConformance } from '../../../../test/support/batch-store-conformance.ts';
import { startMongo } from '../../../../test/support/mongo.ts';

const mongo = await startMongo();

if (typeof mongo === 'string') {
  describe('BatchStore conformance: MongoDB', () => {
    it.skip(`skipped: ${mongo}; runs when MONGODB_URI is set or a container runtime (Docker) is available`, () => {});
  });
  console.warn(`[edge] MongoDB batch store conformance skipped: ${mongo}`);
} else {
  afterAll(async () => {
    await mongo.stop();
  });
  runBatchStoreConformance('MongoDB', {
    async open() {
      const store = new MongoBatchStore({ uri: mongo.uri, name: `bconf_${randomUUID().slice(0, 8)}` });
      await store.init();
      return store;
    },
  });
}
