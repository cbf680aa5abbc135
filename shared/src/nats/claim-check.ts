/**
 * Claim check for payloads over the server's max_payload (1 MB by default): the body goes to a
 * JetStream object store bucket with a short TTL, and the message carries only its name. The reader
 * deletes the object after reading it; the bucket TTL removes what a crashed reader left behind.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { randomUUID } from 'node:crypto';

export const CLAIM_BUCKET = 'enrich-claims';
const CLAIM_TTL_MS = 5 * 60_000;

const stores = new WeakMap<NatsConnection, Promise<ObjectStore>>();

function claimStore(nc: NatsConnection): Promise<ObjectStore> {
  let store = stores.get(nc);
  if (!store) {
    store = (async () => {
      await jetstreamManager(nc); // fails fast with a clear error when JetStream is off
      const objm = new Objm(nc);
      // File storage: a claim must survive a server restart within its TTL, and memory storage
      // would hold 5 MB snapshots in the server's RAM.
      return objm.create(CLAIM_BUCKET, { ttl: CLAIM_TTL_MS * 1_000_000, description: 'payloads over max_payload, read once' });
    })();
    store.catch(() => stores.delete(nc));
    stores.set(nc, store);
  }
  return store;
}

export async function putClaim(nc: NatsConnection, body: Uint8Array): Promise<string> {
  const store = await claimStore(nc);
  const name = randomUUID();
  await store.putBlob({ name }, body);
  return `${CLAIM_BUCKET}/${name}`;
}

export async function takeClaim(nc: NatsConnection, ref: string): Promise<Uint8Array> {
  const [bucket, name] = ref.split('/');
  if (bucket !== CLAIM_BUCKET || !name) throw new Error(`unknown claim check reference ${ref}`);
  const store = await claimStore(nc);
  const body = await store.getBlob(name);
  if (!body) throw new Error(`claim ${ref} is gone (expired or already read)`);
  store.delete(name).catch(() => undefined); // best effort; the bucket TTL is the safety net
  return body;
}
