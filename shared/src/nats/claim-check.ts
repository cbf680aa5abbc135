/**
 * Claim check for payloads over the server's max_payload (1 MB by default): the body goes to a
 * JetStream object store bucket with a short TTL, and the message carries only its name. The reader
 * deletes the object after reading it; the bucket TTL removes what a crashed reader left behind.
 */
import type { ObjectStore } from '@nats-io/obj';
import type { NatsConnection } from '@nats-io/transport-node';
import { randomUUID } from 'node:crypto';
import { objectBucket } from './buckets.ts';

export const CLAIM_BUCKET = 'enrich-claims';
const CLAIM_TTL_MS = 5 * 60_000;

function claimStore(nc: NatsConnection): Promise<ObjectStore> {
  return objectBucket(nc, CLAIM_BUCKET, CLAIM_TTL_MS, 'payloads over max_payload, read once');
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
