/**
 * The page snapshot travels once: the renderer stores it (gzip JSON) in the object-store bucket
 * `enrich-snapshots` and answers its reference; the analyzers read it by reference, so the edge never
 * decodes the snapshot nor encodes it again for each analyzer. The edge deletes the objects once the
 * request is answered; the bucket's TTL removes what a crashed edge left behind.
 */
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { trace } from '@opentelemetry/api';
import type { NatsConnection } from '@nats-io/transport-node';
import type { RenderRequest, RenderResult } from '../contracts/render.ts';
import { SNAPSHOT_REF_BUCKET, SnapshotSchema, type Snapshot } from '../contracts/snapshot.ts';
import { BadMessageError, UnavailableError } from '../errors.ts';
import { objectBucket } from './buckets.ts';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);
/** Longer than any request's budget, so a snapshot outlives every reader of it. */
export const SNAPSHOT_TTL_MS = 10 * 60_000;

function snapshotStore(nc: NatsConnection) {
  return objectBucket(nc, SNAPSHOT_REF_BUCKET, SNAPSHOT_TTL_MS, 'page snapshots of requests in flight, by reference');
}

/** Stores the snapshot; answers its reference, `enrich-snapshots/<uuid>`. */
export async function putSnapshot(nc: NatsConnection, snapshot: Snapshot): Promise<string> {
  const store = await snapshotStore(nc);
  const name = randomUUID();
  await store.putBlob({ name }, await gzipAsync(Buffer.from(JSON.stringify(snapshot)), { level: 4 }));
  return `${SNAPSHOT_REF_BUCKET}/${name}`;
}

/**
 * The renderer's reply to a request with `snapshotByRef`: the snapshot stored, its reference in the
 * reply. If the store fails, the snapshot goes inline, as without `snapshotByRef`.
 */
export async function storedByRef(
  nc: NatsConnection,
  req: RenderRequest,
  result: RenderResult,
  log: { warn(o: object, msg: string): void },
): Promise<RenderResult> {
  if (!req.snapshotByRef || !result.snapshot) return result;
  const span = trace.getTracer('enrich.renderer').startSpan('render.store_snapshot');
  try {
    const ref = await putSnapshot(nc, result.snapshot);
    return { ...result, snapshot: null, snapshotRef: ref };
  } catch (err) {
    log.warn({ err }, 'snapshot store failed; the snapshot goes inline');
    span.recordException(err as Error);
    return result;
  } finally {
    span.end();
  }
}

/** The stored snapshot, checked against its contract; UNAVAILABLE (503, retryable) when it is gone. */
export async function readSnapshot(nc: NatsConnection, ref: string): Promise<Snapshot> {
  const name = ref.slice(SNAPSHOT_REF_BUCKET.length + 1);
  const store = await snapshotStore(nc);
  const body = await store.getBlob(name);
  if (!body) throw new UnavailableError('the page snapshot expired before it was analysed; ask again');
  const parsed = SnapshotSchema.safeParse(JSON.parse((await gunzipAsync(body)).toString('utf8')));
  if (!parsed.success) throw new BadMessageError(`the page snapshot ${ref} is outside its contract`);
  return parsed.data;
}

/** Best effort: the bucket TTL is the safety net. */
export async function deleteSnapshots(nc: NatsConnection, refs: readonly string[]): Promise<void> {
  if (refs.length === 0) return;
  const store = await snapshotStore(nc);
  await Promise.allSettled(refs.map((ref) => store.delete(ref.slice(SNAPSHOT_REF_BUCKET.length + 1))));
}

/**
 * An analyzer's message as its request: the snapshot read where it came by reference, and the
 * extra pages' references (analyze.company) read into `extraSnapshots`.
 */
export async function withSnapshots<M extends { snapshot?: Snapshot | undefined; snapshotRef?: string | undefined; extraSnapshotRefs?: string[] | undefined }>(
  nc: NatsConnection,
  m: M,
): Promise<Omit<M, 'snapshot' | 'snapshotRef' | 'extraSnapshotRefs'> & { snapshot: Snapshot }> {
  const { snapshot, snapshotRef, extraSnapshotRefs, ...rest } = m;
  const main = snapshot ?? (snapshotRef ? readSnapshot(nc, snapshotRef) : null);
  if (!main) throw new BadMessageError('the message carries neither a snapshot nor a snapshotRef');
  const [resolved, ...extras] = await Promise.all([main, ...(extraSnapshotRefs ?? []).map((ref) => readSnapshot(nc, ref))]);
  const out = { ...rest, snapshot: resolved as Snapshot };
  if (extras.length > 0)
    (out as unknown as { extraSnapshots: Snapshot[] }).extraSnapshots = [...((rest as { extraSnapshots?: Snapshot[] }).extraSnapshots ?? []), ...extras];
  return out;
}
