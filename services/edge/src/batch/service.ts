/**
 * The batch service of one edge: its store, its queue, submission, cancellation, the end of a batch
 * (webhook enqueued, leftover items dropped) and, when BATCH_WORKER is on, the item worker and the
 * webhook deliverer. Built by buildApp; closed with the app.
 */
import { randomBytes } from 'node:crypto';
import type { Consumer, JsMsg } from '@nats-io/jetstream';
import { UnavailableError } from '@enrich/shared/errors';
import type { EdgeDeps } from '../deps.ts';
import { batchConfigOf, type BatchConfig } from './config.ts';
import { watchGivenUpItems } from './give-up.ts';
import type { InteractiveLoad } from './interactive.ts';
import { KvBatchStore } from './kv-store.ts';
import { batchMetrics } from './metrics.ts';
import { addHooksConsumer, addItemConsumer, dropBatchItems, openBatchQueue, publishHook, publishItems, type BatchQueue } from './queue.ts';
import { emptyBitmap, endEarly, toInfo, type BatchRecord, type TraceLink } from './record.ts';
import type { BatchStore } from './store.ts';
import type { ValidBatch } from './validate.ts';
import { deliverWebhook, webhookBackoffMs } from './webhook.ts';
import { BatchWorker } from './worker.ts';

export interface BatchService {
  store: BatchStore;
  config: BatchConfig;
  submit(keyId: string, batch: ValidBatch, link: TraceLink | null): Promise<BatchRecord>;
  /** Cancels a queued or running batch; answers the record afterwards and whether this call ended it. */
  cancel(id: string): Promise<{ record: BatchRecord | null; changed: boolean }>;
  close(): Promise<void>;
}

/** KV, or MongoDB with STORE=mongo (the driver loaded only then). */
async function openStoreFor(deps: EdgeDeps, config: BatchConfig): Promise<BatchStore> {
  const s = deps.config.store;
  if (s.kind !== 'mongo') return new KvBatchStore({ nc: deps.nc, name: s.name, retentionMs: config.retentionMs });
  const { MongoBatchStore } = await import('./mongo-store.ts');
  return new MongoBatchStore({ uri: s.uri, name: s.name });
}

export async function startBatchService(deps: EdgeDeps, load: InteractiveLoad): Promise<BatchService> {
  const config = batchConfigOf(deps.config);
  const store = await openStoreFor(deps, config);
  await store.init();
  const queue = await openBatchQueue(deps.nc, deps.config.store.name);
  const ackWaitMs = deps.config.requestBudgetMs + Math.max(5000, Math.floor(deps.config.requestBudgetMs / 2));
  let worker: BatchWorker | undefined;
  const onEnded = async (rec: BatchRecord): Promise<void> => {
    if (rec.webhook?.state === 'waiting') await publishHook(queue, rec.id);
    await dropBatchItems(queue, rec.id);
    worker?.forget(rec.id);
    batchMetrics().batches.add(1, { event: rec.status });
    deps.log.info({ batchId: rec.id, status: rec.status, succeeded: rec.succeeded, failed: rec.failed, total: rec.total }, 'batch ended');
  };
  let stopHooks: (() => Promise<void>) | undefined;
  if (config.worker) {
    worker = new BatchWorker({ ctx: { deps, store, config, onEnded }, queue, store, config, log: deps.log, load });
    worker.start();
    await addHooksConsumer(queue, { ackWaitMs: config.webhookTimeoutMs + 30_000, maxDeliver: config.webhookMaxAttempts });
    const hooks = runHooks(deps, store, queue, config);
    const watch = watchGivenUpItems({ nc: deps.nc, queue, store, retentionMs: config.retentionMs, log: deps.log, onEnded });
    stopHooks = async () => {
      watch.unsubscribe();
      await hooks();
    };
  }
  return {
    store,
    config,
    async submit(keyId, batch, link) {
      const now = Date.now();
      const rec: BatchRecord = {
        id: `bat_${randomBytes(12).toString('hex')}`,
        keyId,
        endpoint: batch.endpoint,
        total: batch.items.length,
        status: 'queued',
        createdAt: new Date(now).toISOString(),
        startedAt: null,
        finishedAt: null,
        maxAge: batch.maxAge,
        webhook: batch.webhook ? { url: batch.webhook, state: 'waiting', attempts: 0 } : null,
        answered: emptyBitmap(batch.items.length),
        succeeded: 0,
        failed: 0,
        creditsCharged: 0,
        link,
        expiresAt: now + config.retentionMs,
      };
      await store.create(rec);
      try {
        await publishItems(
          queue,
          batch.items.map((item) => ({ batchId: rec.id, ...item })),
        );
        // The consumer last: no worker sees the batch before every item is in the stream.
        await addItemConsumer(queue, rec.id, { ackWaitMs, maxDeliver: config.maxAttempts + 2 });
      } catch (err) {
        deps.log.error({ err, batchId: rec.id }, 'queueing the batch failed; removing what was written');
        await dropBatchItems(queue, rec.id).catch(() => undefined);
        await store.remove(rec.id).catch(() => undefined);
        throw new UnavailableError(`could not queue the batch: ${(err as Error).message}`);
      }
      batchMetrics().batches.add(1, { event: 'submitted' });
      return rec;
    },
    async cancel(id) {
      const r = await store.update(id, (cur) => endEarly(cur, 'cancelled', Date.now(), config.retentionMs));
      if (r.changed && r.record) await onEnded(r.record);
      return r;
    },
    async close() {
      await stopHooks?.();
      await worker?.stop();
      await store.close?.();
    },
  };
}

/** Delivers end-of-batch webhooks from the `hooks` consumer, one at a time; answers a stop function. */
function runHooks(deps: EdgeDeps, store: BatchStore, queue: BatchQueue, config: BatchConfig): () => Promise<void> {
  let stopped = false;
  const loop = (async () => {
    let consumer: Consumer | undefined;
    while (!stopped) {
      try {
        consumer ??= await queue.js.consumers.get(queue.stream, queue.hooksConsumer);
        const msg = await consumer.next({ expires: 1000 });
        if (msg) await deliverOne(store, config, deps.config.allowPrivateTargets, msg);
      } catch (err) {
        deps.log.warn({ err }, 'webhook delivery loop error');
        consumer = undefined;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  })();
  return async () => {
    stopped = true;
    await loop;
  };
}

/** `allow`: the edge's ALLOW_PRIVATE_TARGETS, exempt from the webhook's address guard too. */
async function deliverOne(store: BatchStore, config: BatchConfig, allow: string[], msg: JsMsg): Promise<void> {
  const { batchId } = msg.json<{ batchId: string }>();
  const rec = await store.get(batchId);
  if (!rec?.webhook || rec.webhook.state !== 'waiting') return msg.ack();
  const secret = await store.webhookSecret(rec.keyId);
  const attempt = msg.info.deliveryCount;
  const outcome = await deliverWebhook({
    url: rec.webhook.url,
    secret: secret ?? '',
    body: { event: 'batch.finished', batch: toInfo(rec) },
    attempt,
    allowPrivateTargets: allow,
    timeoutMs: config.webhookTimeoutMs,
  });
  const final = outcome.ok || outcome.permanent || attempt >= config.webhookMaxAttempts;
  await store.update(batchId, (cur) =>
    cur.webhook
      ? {
          ...cur,
          webhook: outcome.ok
            ? { url: cur.webhook.url, state: 'delivered', attempts: attempt }
            : { url: cur.webhook.url, state: final ? 'failed' : 'waiting', attempts: attempt, lastError: outcome.error },
        }
      : null,
  );
  batchMetrics().webhooks.add(1, { outcome: outcome.ok ? 'delivered' : final ? 'failed' : 'retried' });
  if (final) msg.ack();
  else msg.nak(webhookBackoffMs(config.webhookBackoffMs, attempt));
}
