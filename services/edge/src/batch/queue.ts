/**
 * The durable part of a batch: a JetStream work-queue stream holding one message per item (and one
 * per finished batch for its webhook). Each batch gets its own durable pull consumer with explicit
 * ack (filter = that batch's subject), so the worker can take items from several batches in turn
 * (fair sharing) instead of in arrival order. An item is acked only once its answer is stored and its
 * credits settled; an edge that dies mid-item leaves it unacked and JetStream redelivers it after
 * ack_wait, at most max_deliver times.
 *
 * Names derive from STORE_NAME (prefix), so stacks sharing one NATS do not see each other's work:
 *   stream   <PREFIX>_BATCH  (ENRICH_BATCH by default), work-queue retention, file storage
 *   subjects <prefix>.batch.item.<batchId> (payload ItemMessage), <prefix>.batch.hook.<batchId>
 *   consumers item_<batchId> (one per unfinished batch), hooks (webhook deliveries)
 */
import {
  AckPolicy,
  DeliverPolicy,
  RetentionPolicy,
  StorageType,
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

export interface ItemMessage {
  batchId: string;
  index: number;
  /**
   * The item's parameters as given (JSON values as strings), the batch's `maxAge` merged in unless the
   * item has its own; validated again by the worker with the endpoint's schema.
   */
  params: Record<string, string>;
}

export interface BatchQueue {
  js: JetStreamClient;
  jsm: JetStreamManager;
  stream: string;
  itemSubject(batchId: string): string;
  hookSubject(batchId: string): string;
  itemConsumer(batchId: string): string;
  hooksConsumer: string;
}

const ITEM_PREFIX = 'item_';
const MS = 1_000_000; // nanoseconds per millisecond

export async function openBatchQueue(nc: NatsConnection, prefix: string): Promise<BatchQueue> {
  const jsm = await jetstreamManager(nc);
  const stream = `${prefix.toUpperCase()}_BATCH`;
  const q: BatchQueue = {
    js: jetstream(nc),
    jsm,
    stream,
    itemSubject: (id) => `${prefix}.batch.item.${id}`,
    hookSubject: (id) => `${prefix}.batch.hook.${id}`,
    itemConsumer: (id) => `${ITEM_PREFIX}${id}`,
    hooksConsumer: 'hooks',
  };
  try {
    await jsm.streams.info(stream);
  } catch {
    await jsm.streams.add({
      name: stream,
      subjects: [`${prefix}.batch.item.>`, `${prefix}.batch.hook.>`],
      retention: RetentionPolicy.Workqueue,
      storage: StorageType.File,
      duplicate_window: 10 * 60_000 * MS,
    });
  }
  return q;
}

/** The batch id a consumer name belongs to, or null for other consumers. */
export function batchIdOfConsumer(name: string): string | null {
  return name.startsWith(ITEM_PREFIX) ? name.slice(ITEM_PREFIX.length) : null;
}

export async function addItemConsumer(q: BatchQueue, batchId: string, opts: { ackWaitMs: number; maxDeliver: number }): Promise<void> {
  await q.jsm.consumers.add(q.stream, {
    durable_name: q.itemConsumer(batchId),
    filter_subject: q.itemSubject(batchId),
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: opts.ackWaitMs * MS,
    max_deliver: opts.maxDeliver,
    max_ack_pending: 1000,
  });
}

export async function addHooksConsumer(q: BatchQueue, opts: { ackWaitMs: number; maxDeliver: number }): Promise<void> {
  await q.jsm.consumers.add(q.stream, {
    durable_name: q.hooksConsumer,
    filter_subject: q.hookSubject('*'),
    ack_policy: AckPolicy.Explicit,
    ack_wait: opts.ackWaitMs * MS,
    max_deliver: opts.maxDeliver,
  });
}

/** Publishes every item, `window` at a time; msgID = <batchId>.<index>, so a retried publish is not a second item. */
export async function publishItems(q: BatchQueue, items: ItemMessage[], window = 256): Promise<void> {
  for (let i = 0; i < items.length; i += window) {
    await Promise.all(items.slice(i, i + window).map((m) => q.js.publish(q.itemSubject(m.batchId), JSON.stringify(m), { msgID: `${m.batchId}.${m.index}` })));
  }
}

export async function publishHook(q: BatchQueue, batchId: string): Promise<void> {
  await q.js.publish(q.hookSubject(batchId), JSON.stringify({ batchId }), { msgID: `hook.${batchId}` });
}

/** Drops a batch's items that have not started and its consumer (cancel, stop, end, failed submission). */
export async function dropBatchItems(q: BatchQueue, batchId: string): Promise<void> {
  await q.jsm.streams.purge(q.stream, { filter: q.itemSubject(batchId) });
  await q.jsm.consumers.delete(q.stream, q.itemConsumer(batchId)).catch((err: unknown) => {
    if (!/consumer not found/i.test((err as Error).message)) throw err;
  });
}

export async function listBatchConsumers(q: BatchQueue): Promise<string[]> {
  const ids: string[] = [];
  for await (const c of q.jsm.consumers.list(q.stream)) {
    const id = batchIdOfConsumer(c.name);
    if (id) ids.push(id);
  }
  return ids;
}
