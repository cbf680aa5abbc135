import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { KvBatchStore } from './kv-store.ts';
import { runBatchStoreConformance } from '../../../../test/support/batch-store-conformance.ts';

let nc: NatsConnection;
beforeAll(async () => {
  nc = await connect({ servers: inject('natsUrl') });
});
afterAll(async () => {
  await nc?.close();
});

runBatchStoreConformance('NATS JetStream KV', {
  async open() {
    const store = new KvBatchStore({ nc, name: `bconf_${randomUUID().slice(0, 8)}`, retentionMs: 3_600_000 });
    await store.init();
    return store;
  },
});
