/**
 * The edge's Store conformance suite against MongoDB in a container of the image docker-compose.yml
 * deploys (the edge's own mongo.test.ts uses MONGODB_URI when set; this one pins the deployed tag).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { runStoreConformance } from '../support/store-conformance.ts';
import { MongoStore } from '../../services/edge/src/store/mongo.ts';
import { composeImage, containerRuntimeProblem } from './runtime.ts';

const problem = await containerRuntimeProblem();

if (problem) {
  console.warn(`[containers] MongoDB store conformance skipped: ${problem}`);
  describe('Store conformance: MongoDB in a container', () => {
    it.skip(`skipped: ${problem}; runs where a container runtime (Docker) is available`, () => {});
  });
} else {
  let uri = '';
  let stop: () => Promise<unknown> = async () => undefined;
  beforeAll(async () => {
    const { MongoDBContainer } = await import('@testcontainers/mongodb');
    // A single-node replica set, as the module starts it: the store's transactions need one.
    const container = await new MongoDBContainer(composeImage('mongo')).start();
    uri = `${container.getConnectionString()}?directConnection=true`;
    stop = () => container.stop();
  });
  afterAll(async () => {
    await stop();
  });
  runStoreConformance(`MongoDB (${composeImage('mongo')}, container)`, {
    async open() {
      const store = new MongoStore({ uri, name: `conf_${randomUUID().slice(0, 8)}` });
      await store.init();
      return store;
    },
  });
}
