/**
 * Builds the store the configuration names; the caller owns init() and close(). The MongoDB driver
 * is loaded only when the store is MongoDB (about 28 MB of RSS an edge on KV does not need).
 */
import type { NatsConnection } from '@nats-io/transport-node';
import type { EdgeConfig } from '../config.ts';
import { KvStore } from './kv.ts';
import type { Store } from './port.ts';

export async function openStore(
  config: Pick<EdgeConfig, 'store'> & Partial<Pick<EdgeConfig, 'usageRetentionMs' | 'ledgerRetentionMs'>>,
  nc: NatsConnection,
): Promise<Store> {
  const retention = config.usageRetentionMs && config.ledgerRetentionMs ? { usageMs: config.usageRetentionMs, ledgerMs: config.ledgerRetentionMs } : undefined;
  if (config.store.kind !== 'mongo') return new KvStore({ nc, name: config.store.name, retention });
  const { MongoStore } = await import('./mongo.ts');
  return new MongoStore({ uri: config.store.uri, name: config.store.name, retention });
}
