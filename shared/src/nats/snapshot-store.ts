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
import { SNAPSHOT_REF_BUCKET, SnapshotSchema, SnapshotVisualsSchema, type EarlySnapshot, type Snapshot, type SnapshotVisuals } from '../contracts/snapshot.ts';
import { BadMessageError, UnavailableError } from '../errors.ts';
import { objectBucket } from './buckets.ts';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);
/** Longer than any request's budget, so a snapshot outlives every reader of it. */
export const SNAPSHOT_TTL_MS = 10 * 60_000;

function snapshotStore(nc: NatsConnection) {
  return objectBucket(nc, SNAPSHOT_REF_BUCKET, SNAPSHOT_TTL_MS, 'page snapshots of requests in flight, by reference');
}

/** Stores the snapshot (or its visuals, stored apart); answers its reference, `enrich-snapshots/<uuid>`. */
export async function putSnapshot(nc: NatsConnection, snapshot: Snapshot | SnapshotVisuals): Promise<string> {
  const store = await snapshotStore(nc);
  const name = randomUUID();
  await store.putBlob({ name }, await gzipAsync(Buffer.from(JSON.stringify(snapshot)), { level: 4 }));
  return `${SNAPSHOT_REF_BUCKET}/${name}`;
}

/** The visuals of a finished snapshot: what it gained after its page part was handed out. */
export function visualsOf(s: Snapshot): SnapshotVisuals {
  return {
    styles: s.styles,
    stylesheets: s.stylesheets,
    scripts: s.scripts,
    thumbnail: s.thumbnail,
    logoRasters: s.logoRasters,
    ...(s.siteIcons ? { siteIcons: s.siteIcons } : {}),
    resources: s.resources,
    truncated: s.truncated,
  };
}

/**
 * Whether visuals handed out early are the finished snapshot's: the same thumbnail and logo rasters
 * (the same objects: the render reuses the raster it began before the capture). The network log and
 * the cut list may have grown since; what the brand analyzer reads of them (font files) is loaded by
 * then, so the early visuals stand for the reply's.
 */
export function sameVisuals(early: SnapshotVisuals, finished: Snapshot): boolean {
  return (
    early.styles === finished.styles &&
    early.thumbnail === finished.thumbnail &&
    early.siteIcons === finished.siteIcons &&
    early.logoRasters.length === finished.logoRasters.length &&
    early.logoRasters.every((r, i) => r.png === finished.logoRasters[i]!.png && r.ref === finished.logoRasters[i]!.ref)
  );
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

/** The renderer's side of RenderRequest.earlySnapshotTo, for one job. */
export interface EarlyHandOut {
  /** The page part, read and not yet captured: stored, and its reference published to the inbox (the first one only). */
  pagePart(part: Snapshot): void;
  /**
   * The visuals of `part`, ready before the capture ended: stored, and `{ snapshotRef, visualsRef }`
   * published to the inbox, when `part` is the page part last handed out (not one of a document
   * replaced since) and the first one published. The reply then names these visuals when its
   * snapshot's logo rasters are the same (`sameVisuals`).
   */
  visuals(part: Snapshot, visuals: SnapshotVisuals): void;
  /**
   * The reply: the last page part's reference as `snapshotRef` and the visuals stored apart as
   * `visualsRef`; as `storedByRef` does when the page part could not be stored.
   */
  reply(result: RenderResult): Promise<RenderResult>;
}

/**
 * Hands the page part of the snapshot out early when the request names an inbox for it (and wants
 * the snapshot by reference); null otherwise. A document replaced while it is read is read again:
 * its new page part is stored and named in the reply, while only the first was published, so the
 * caller compares the two.
 */
export function earlyHandOut(nc: NatsConnection, req: RenderRequest, log: { warn(o: object, msg: string): void }): EarlyHandOut | null {
  const inbox = req.earlySnapshotTo;
  if (!req.snapshotByRef || !req.snapshot || !inbox) return null;
  let stored: Promise<string | null> | undefined;
  let lastPart: Snapshot | undefined;
  let firstRef: Promise<string | null> | undefined;
  // The visuals handed out early, and the page part they belong to.
  let early: { part: Snapshot; visuals: SnapshotVisuals; ref: Promise<string | null> } | undefined;
  const tracer = trace.getTracer('enrich.renderer');
  return {
    pagePart(part) {
      const span = tracer.startSpan('render.store_snapshot', { attributes: { part: 'page' } });
      const first = stored === undefined;
      lastPart = part;
      stored = putSnapshot(nc, part).then(
        (ref) => {
          if (first) {
            const early: EarlySnapshot = { snapshotRef: ref };
            try {
              nc.publish(inbox, JSON.stringify(early));
            } catch (err) {
              // The caller then starts from the reply, which names the same object.
              log.warn({ err }, 'publishing the page part failed');
            }
          }
          return ref;
        },
        (err: unknown) => {
          log.warn({ err }, 'storing the page part failed; the snapshot goes whole at the end');
          span.recordException(err as Error);
          return null;
        },
      );
      if (first) firstRef = stored;
      void stored.finally(() => span.end());
    },
    visuals(part, visuals) {
      if (part !== lastPart || stored !== firstRef || early || !stored) return;
      const pageRef = stored;
      const span = tracer.startSpan('render.store_snapshot', { attributes: { part: 'visuals', early: true } });
      const ref = pageRef.then(async (snapshotRef) => {
        if (!snapshotRef) return null;
        const visualsRef = await putSnapshot(nc, visuals);
        const message: EarlySnapshot = { snapshotRef, visualsRef };
        nc.publish(inbox, JSON.stringify(message));
        return visualsRef;
      });
      early = {
        part,
        visuals,
        ref: ref.catch((err: unknown) => {
          log.warn({ err }, 'handing the visuals out early failed; they go with the reply');
          span.recordException(err as Error);
          return null;
        }),
      };
      void early.ref.finally(() => span.end());
    },
    async reply(result) {
      const pageRef = stored ? await stored : null;
      if (!result.snapshot || !pageRef) return storedByRef(nc, req, result, log);
      // The visuals handed out early, when they are the reply's: same page part, same logo rasters.
      const earlyRef = early && early.part === lastPart && sameVisuals(early.visuals, result.snapshot) ? await early.ref : null;
      if (earlyRef) return { ...result, snapshot: null, snapshotRef: pageRef, visualsRef: earlyRef };
      const span = tracer.startSpan('render.store_snapshot', { attributes: { part: 'visuals' } });
      try {
        const visualsRef = await putSnapshot(nc, visualsOf(result.snapshot));
        return { ...result, snapshot: null, snapshotRef: pageRef, visualsRef };
      } catch (err) {
        log.warn({ err }, 'storing the visuals failed; the snapshot goes whole');
        span.recordException(err as Error);
        return storedByRef(nc, req, result, log);
      } finally {
        span.end();
      }
    },
  };
}

/**
 * The stored snapshot, with its visuals laid over it when they were stored apart, checked against
 * its contract; UNAVAILABLE (503, retryable) when either object is gone.
 */
export async function readSnapshot(nc: NatsConnection, ref: string, visualsRef?: string): Promise<Snapshot> {
  const [page, visuals] = await Promise.all([readObject(nc, ref), visualsRef ? readObject(nc, visualsRef) : null]);
  const parsed = SnapshotSchema.safeParse(page);
  if (!parsed.success) throw new BadMessageError(`the page snapshot ${ref} is outside its contract`);
  if (visuals === null) return parsed.data;
  const over = SnapshotVisualsSchema.safeParse(visuals);
  if (!over.success) throw new BadMessageError(`the snapshot visuals ${visualsRef} are outside their contract`);
  const { siteIcons: _gone, ...rest } = parsed.data;
  return { ...rest, ...over.data };
}

async function readObject(nc: NatsConnection, ref: string): Promise<unknown> {
  const name = ref.slice(SNAPSHOT_REF_BUCKET.length + 1);
  const store = await snapshotStore(nc);
  const body = await store.getBlob(name);
  if (!body) throw new UnavailableError('the page snapshot expired before it was analysed; ask again');
  return JSON.parse((await gunzipAsync(body)).toString('utf8'));
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
export async function withSnapshots<
  M extends { snapshot?: Snapshot | undefined; snapshotRef?: string | undefined; visualsRef?: string | undefined; extraSnapshotRefs?: string[] | undefined },
>(nc: NatsConnection, m: M): Promise<Omit<M, 'snapshot' | 'snapshotRef' | 'visualsRef' | 'extraSnapshotRefs'> & { snapshot: Snapshot }> {
  const { snapshot, snapshotRef, visualsRef, extraSnapshotRefs, ...rest } = m;
  const main = snapshot ?? (snapshotRef ? readSnapshot(nc, snapshotRef, visualsRef) : null);
  if (!main) throw new BadMessageError('the message carries neither a snapshot nor a snapshotRef');
  const [resolved, ...extras] = await Promise.all([main, ...(extraSnapshotRefs ?? []).map((ref) => readSnapshot(nc, ref))]);
  const out = { ...rest, snapshot: resolved as Snapshot };
  if (extras.length > 0)
    (out as unknown as { extraSnapshots: Snapshot[] }).extraSnapshots = [...((rest as { extraSnapshots?: Snapshot[] }).extraSnapshots ?? []), ...extras];
  return out;
}
