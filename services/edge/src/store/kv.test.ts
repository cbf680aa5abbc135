import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
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
