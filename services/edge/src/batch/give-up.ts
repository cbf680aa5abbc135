/**
 * The last resort for an item that JetStream stopped delivering (max_deliver reached without an ack:
 * every delivery crashed or failed before its answer was stored). The server publishes a
 * MAX_DELIVERIES advisory; one edge (queue group) reads the item's message, stores a 500 answer for
 * it (unless one exists), counts it, and deletes the message, so the batch still ends. Advisories
 * are core NATS: one published while no edge runs is lost, and the item then stays pending.
 */
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { STATUS_BY_CODE } from '../errors.ts';
import { batchIdOfConsumer, type BatchQueue, type ItemMessage } from './queue.ts';
import { countAnswer, type BatchRecord } from './record.ts';
import type { BatchStore } from './store.ts';

interface MaxDeliveriesAdvisory {
  stream: string;
  consumer: string;
  stream_seq: number;
  deliveries: number;
}

export function watchGivenUpItems(opts: {
  nc: NatsConnection;
  queue: BatchQueue;
  store: BatchStore;
  retentionMs: number;
  log: Logger;
  onEnded(rec: BatchRecord): Promise<void>;
}): Subscription {
  const { queue } = opts;
  return opts.nc.subscribe(`$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${queue.stream}.*`, {
    queue: `${queue.stream}_give_up`,
    callback: (err, msg) => {
      if (err) return;
      void giveUp(opts, msg.json<MaxDeliveriesAdvisory>()).catch((e: unknown) => opts.log.error({ err: e }, 'could not close an item JetStream gave up on'));
    },
  });
}

async function giveUp(opts: Parameters<typeof watchGivenUpItems>[0], adv: MaxDeliveriesAdvisory): Promise<void> {
  const batchId = batchIdOfConsumer(adv.consumer);
  if (!batchId) return;
  const stored = await opts.queue.jsm.streams.getMessage(opts.queue.stream, { seq: adv.stream_seq }).catch(() => null);
  if (!stored) return;
  const m = stored.json<ItemMessage>();
  const rec = await opts.store.get(batchId);
  if (rec && Number.isInteger(m.index) && m.index >= 0 && m.index < rec.total) {
    const url = typeof m.params?.url === 'string' ? m.params.url : undefined;
    const result = await opts.store.putResult(
      batchId,
      {
        index: m.index,
        state: 'failed',
        status: STATUS_BY_CODE.INTERNAL,
        credits: 0,
        finishedAt: new Date().toISOString(),
        ...(url ? { url } : {}),
        error: `Internal error: the item failed on each of its ${adv.deliveries} deliveries; quote batch ${batchId} item ${m.index} when reporting it`,
      },
      Date.now() + opts.retentionMs,
    );
    const { record, changed } = await opts.store.update(batchId, (cur) => countAnswer(cur, result, Date.now(), opts.retentionMs));
    opts.log.error({ batchId, index: m.index, deliveries: adv.deliveries }, 'batch item given up after its last delivery');
    if (changed && record?.status === 'done') await opts.onEnded(record);
  }
  await opts.queue.jsm.streams.deleteMessage(opts.queue.stream, adv.stream_seq).catch(() => false);
}
