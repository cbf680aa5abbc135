/** Builds the store the configuration names; the caller owns init() and close(). */
import type { NatsConnection } from '@nats-io/transport-node';
import type { EdgeConfig } from '../config.ts';
import { KvStore } from './kv.ts';
import { MongoStore } from './mongo.ts';
import type { Store } from './port.ts';

export function openStore(config: Pick<EdgeConfig, 'store'> & Partial<Pick<EdgeConfig, 'usageRetentionMs' | 'ledgerRetentionMs'>>, nc: NatsConnection): Store {
  const retention = config.usageRetentionMs && config.ledgerRetentionMs ? { usageMs: config.usageRetentionMs, ledgerMs: config.ledgerRetentionMs } : undefined;
  return config.store.kind === 'mongo'
    ? new MongoStore({ uri: config.store.uri, name: config.store.name, retention })
    : new KvStore({ nc, name: config.store.name, retention });
}
