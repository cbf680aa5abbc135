/**
 * JetStream object-store buckets with a TTL, opened once per connection: the claim checks
 * (claim-check.ts) and the stored page snapshots (snapshot-store.ts).
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { Objm, type ObjectStore } from '@nats-io/obj';
import type { NatsConnection } from '@nats-io/transport-node';

const opened = new WeakMap<NatsConnection, Map<string, Promise<ObjectStore>>>();

/** The bucket, created with `ttlMs` (file storage) the first time any service asks for it. */
export function objectBucket(nc: NatsConnection, name: string, ttlMs: number, description: string): Promise<ObjectStore> {
  let byName = opened.get(nc);
  if (!byName) {
    byName = new Map();
    opened.set(nc, byName);
  }
  let store = byName.get(name);
  if (!store) {
    store = (async () => {
      await jetstreamManager(nc); // fails fast with a clear error when JetStream is off
      // File storage: an object must survive a server restart within its TTL, and memory storage
      // would hold 5 MB snapshots in the server's RAM.
      return new Objm(nc).create(name, { ttl: ttlMs * 1_000_000, description });
    })();
    const map = byName;
    store.catch(() => map.delete(name));
    byName.set(name, store);
  }
  return store;
}
