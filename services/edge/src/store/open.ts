/** Builds the store the configuration names; the caller owns init() and close(). */
import type { NatsConnection } from '@nats-io/transport-node';
import type { EdgeConfig } from '../config.ts';
import { KvStore } from './kv.ts';
import { MongoStore } from './mongo.ts';
import type { Store } from './port.ts';

export function openStore(config: Pick<EdgeConfig, 'store'>, nc: NatsConnection): Store {
  return config.store.kind === 'mongo' ? new MongoStore({ uri: config.store.uri, name: config.store.name }) : new KvStore({ nc, name: config.store.name });
}
