/**
 * The batch store conformance suite against MongoDB: MONGODB_URI when set, else a throwaway container
 * through testcontainers when a container engine is available, else skipped with the reason printed.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, it } from 'vitest';
import { MongoBatchStore } from './mongo-store.ts';
import { runBatchStoreConformance } from './store-conformance.ts';

async function startMongo(): Promise<{ uri: string; stop(): Promise<void> } | string> {
  const given = process.env.MONGODB_URI;
  if (given) return { uri: given, stop: async () => {} };
  try {
    const { MongoDBContainer } = await import('@testcontainers/mongodb');
    const container = await new MongoDBContainer('mongo:8').start();
    return {
      uri: `${container.getConnectionString()}?directConnection=true`,
      stop: async () => {
        await container.stop();
      },
    };
  } catch (err) {
    return `no MONGODB_URI and no container runtime for testcontainers (${(err as Error).message.split('\n')[0]})`;
  }
}

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
