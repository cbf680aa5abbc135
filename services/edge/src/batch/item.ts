/**
 * One batch item, through the same `executePaid` a GET request uses (reserve -> render/analyze ->
 * validate -> settle), so items charge, orchestrate and fail exactly like single requests.
 *
 * Exactly once, whatever crashes: the answer is stored (first answer wins) BEFORE the credits are
 * settled, and the item is counted (bitmap, idempotent) and acked after. A redelivered item whose
 * answer exists is only settled (idempotent by requestId) and counted again. The requestId is derived
 * from batch id + index + delivery number: a temporary failure (503/504) is refunded and retried with
 * the next delivery as a new ledger entry (a refunded requestId cannot be reserved again), and a
 * delivery cut short by a crash leaves its reservation to the sweeper (refunded once, never charged).
 */
import { createHash } from 'node:crypto';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace, type Link } from '@opentelemetry/api';
import type { JsMsg } from '@nats-io/jetstream';
import type { BatchItemResult } from '@enrich/shared/contracts';
import { ServiceError, type ErrorCode } from '@enrich/shared/errors';
import { withRequestId } from '@enrich/shared/runtime';
import type { EdgeDeps } from '../deps.ts';
import { EDGE_STATUS, EdgeHttpError, toHttpFailure } from '../errors.ts';
import { normalizeTargetUrl, parseQuery } from '../params.ts';
import { executePaid, type BeforeSettle } from '../routes/paid.ts';
import { targetGuard } from '../target-guard.ts';
import type { BatchConfig } from './config.ts';
import { batchMetrics } from './metrics.ts';
import type { ItemMessage } from './queue.ts';
import { TERMINAL, countAnswer, endEarly, markStarted, type BatchRecord } from './record.ts';
import type { BatchStore } from './store.ts';
import { routeOf } from './validate.ts';

export interface ItemContext {
  deps: EdgeDeps;
  store: BatchStore;
  config: BatchConfig;
  /** Called once by whoever moved the batch to an end state. */
  onEnded(rec: BatchRecord): Promise<void>;
}

/** done: acked. retry: naked for a later delivery. busy: naked, and the renderers are busy or absent. */
export type ItemVerdict = 'done' | 'retry' | 'busy';

const TRANSIENT: ReadonlySet<ErrorCode> = new Set(['BUSY', 'NO_RESPONDERS', 'UNAVAILABLE', 'DEADLINE_EXCEEDED']);
const BUSY: ReadonlySet<ErrorCode> = new Set(['BUSY', 'NO_RESPONDERS']);

/** A UUID (version 8: custom) derived from the batch, the item and the delivery. */
export function itemRequestId(batchId: string, index: number, delivery: number): string {
  const h = createHash('sha256').update(`${batchId}:${index}:${delivery}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Another delivery of the same item stored its answer first: this run is refunded. */
class AnsweredElsewhere extends Error {
  readonly stored: BatchItemResult;
  constructor(stored: BatchItemResult) {
    super('item answered by another delivery');
    this.stored = stored;
  }
}

export async function handleItem(ctx: ItemContext, msg: JsMsg): Promise<ItemVerdict> {
  const m = msg.json<ItemMessage>();
  const [batch, [existing]] = await Promise.all([ctx.store.get(m.batchId), ctx.store.getResults(m.batchId, [m.index])]);
  if (existing && batch) {
    await recordItemUsage(ctx, batch, existing);
    await finalize(ctx, batch, existing, true);
    msg.ack();
    return 'done';
  }
  if (!batch || TERMINAL.has(batch.status)) {
    if (batch) batchMetrics().items.add(1, { endpoint: batch.endpoint, outcome: 'skipped' });
    msg.ack();
    return 'done';
  }
  if (batch.status === 'queued') await ctx.store.update(batch.id, (r) => markStarted(r, Date.now()));
  const verdict = await runTraced(ctx, batch, m, msg.info.deliveryCount);
  if (verdict.kind === 'answered') {
    await finalize(ctx, batch, verdict.result, verdict.resettle);
    msg.ack();
    return 'done';
  }
  if (verdict.kind === 'stopped') {
    msg.ack();
    return 'done';
  }
  batchMetrics().items.add(1, { endpoint: batch.endpoint, outcome: 'retried' });
  msg.nak(Math.min(30_000, 1000 * 2 ** (msg.info.deliveryCount - 1)) + Math.floor(Math.random() * 500));
  return verdict.busy ? 'busy' : 'retry';
}

type RunVerdict = { kind: 'answered'; result: BatchItemResult; resettle: boolean } | { kind: 'stopped' } | { kind: 'retry'; busy: boolean };

/** One root span per item (its own trace), linked to the span of the request that submitted the batch. */
async function runTraced(ctx: ItemContext, batch: BatchRecord, m: ItemMessage, delivery: number): Promise<RunVerdict> {
  const requestId = itemRequestId(batch.id, m.index, delivery);
  const links: Link[] = batch.link ? [{ context: { ...batch.link, isRemote: true } }] : [];
  const span = trace.getTracer('enrich.edge').startSpan('batch.item', {
    root: true,
    kind: SpanKind.CONSUMER,
    links,
    attributes: {
      'enrich.batch_id': batch.id,
      'enrich.batch_index': m.index,
      'enrich.endpoint': batch.endpoint,
      'enrich.request_id': requestId,
      'enrich.key_id': batch.keyId,
      'enrich.delivery': delivery,
    },
  });
  const started = Date.now();
  batchMetrics().running.add(1);
  try {
    const verdict = await context.with(withRequestId(trace.setSpan(ROOT_CONTEXT, span), requestId), () => runItem(ctx, batch, m, requestId, delivery));
    span.setAttribute('enrich.outcome', verdict.kind === 'answered' ? verdict.result.state : verdict.kind);
    if (verdict.kind === 'answered' && (verdict.result.status ?? 0) >= 500)
      span.setStatus({ code: SpanStatusCode.ERROR, message: `HTTP ${verdict.result.status}` });
    return verdict;
  } finally {
    batchMetrics().running.add(-1);
    batchMetrics().itemDuration.record(Date.now() - started, { endpoint: batch.endpoint });
    span.end();
  }
}

async function runItem(ctx: ItemContext, batch: BatchRecord, m: ItemMessage, requestId: string, delivery: number): Promise<RunVerdict> {
  const { deps, store, config } = ctx;
  const spec = routeOf(batch.endpoint);
  const final = delivery >= config.maxAttempts;
  const started = Date.now();
  const log = deps.log.child({ requestId, batchId: batch.id, index: m.index });
  const base = { index: m.index, url: m.params.url, requestId };
  let stored: BatchItemResult | undefined;
  let resettle = false;
  const keep = async (r: BatchItemResult): Promise<void> => {
    stored = await store.putResult(batch.id, r, Date.now() + config.retentionMs);
    if (stored.requestId !== requestId) throw new AnsweredElsewhere(stored);
  };
  const beforeSettle: BeforeSettle<unknown> = async (outcome, reservation) => {
    const timing = { durationMs: Date.now() - started, finishedAt: new Date().toISOString() };
    if (outcome.ok) return keep({ ...base, state: 'succeeded', status: 200, data: outcome.data, credits: reservation.amount, ...timing });
    if (isTransient(outcome.error) && !final) return;
    const failure = toHttpFailure(outcome.error, requestId);
    return keep({ ...base, state: 'failed', status: failure.status, error: failure.message, credits: 0, ...timing });
  };
  try {
    const query = parseQuery(spec.query, m.params);
    // The single request's early refusal of private targets, answered as this item's 400 (nothing reserved).
    const url = targetGuard(deps.config.allowPrivateTargets)(normalizeTargetUrl((query as { url: string }).url));
    // `query.maxAge` (the batch's merged in by validate.ts) selects cached answers, as on a GET.
    await executePaid(deps, spec, { keyId: batch.keyId, requestId, url, query, startedAt: started, log }, beforeSettle);
  } catch (err) {
    if (err instanceof AnsweredElsewhere) return { kind: 'answered', result: err.stored, resettle: true };
    // Our success answer is stored but its charge failed (NATS cut off): settle it again, never refund.
    if (stored?.state === 'succeeded') resettle = true;
    else if (err instanceof EdgeHttpError && err.status === EDGE_STATUS.CREDITS_EXHAUSTED) return stopForCredits(ctx, batch);
    else if (!stored) {
      if (isTransient(err) && !final) return { kind: 'retry', busy: err instanceof ServiceError && BUSY.has(err.code) };
      // Refused before any work (revoked key, invalid item) or the answer could not be stored.
      if (!(err instanceof EdgeHttpError || err instanceof ServiceError) || (err instanceof ServiceError && TRANSIENT.has(err.code))) throw err;
      const failure = toHttpFailure(err, requestId);
      stored = await store.putResult(
        batch.id,
        {
          ...base,
          state: 'failed',
          status: failure.status,
          error: failure.message,
          credits: 0,
          durationMs: Date.now() - started,
          finishedAt: new Date().toISOString(),
        },
        Date.now() + config.retentionMs,
      );
    }
  }
  if (!stored) throw new Error('batch item ended without an answer');
  await recordItemUsage(ctx, batch, stored);
  return { kind: 'answered', result: stored, resettle };
}

/**
 * The usage-log entry of a stored answer. Written from the answer itself (its requestId and finish
 * time), so a redelivery that finds the answer writes the very same entry: one entry per item even
 * when the delivery that stored it died before logging it.
 */
async function recordItemUsage(ctx: ItemContext, batch: BatchRecord, stored: BatchItemResult): Promise<void> {
  if (!stored.requestId) return;
  await ctx.deps.store
    .recordUsage([
      {
        requestId: stored.requestId,
        keyId: batch.keyId,
        endpoint: batch.endpoint,
        status: stored.status ?? 0,
        credits: stored.state === 'succeeded' ? (stored.credits ?? 0) : 0,
        durationMs: stored.durationMs ?? 0,
        timestamp: stored.finishedAt ?? new Date().toISOString(),
      },
    ])
    .catch((e: unknown) => ctx.deps.log.warn({ err: e, requestId: stored.requestId }, 'usage log write failed'));
}

function isTransient(err: unknown): boolean {
  return err instanceof ServiceError && TRANSIENT.has(err.code);
}

async function stopForCredits(ctx: ItemContext, batch: BatchRecord): Promise<RunVerdict> {
  const { record, changed } = await ctx.store.update(batch.id, (r) => endEarly(r, 'stopped_credits', Date.now(), ctx.config.retentionMs));
  if (changed && record) await ctx.onEnded(record);
  return { kind: 'stopped' };
}

/** Settles a stored answer again when asked (a redelivery: idempotent), then counts it once. */
async function finalize(ctx: ItemContext, batch: BatchRecord, result: BatchItemResult, resettle: boolean): Promise<void> {
  if (resettle && result.requestId) {
    await ctx.deps.store.settleCredits({ keyId: batch.keyId, requestId: result.requestId, outcome: result.state === 'succeeded' ? 'charge' : 'refund' });
  }
  const { record, changed } = await ctx.store.update(batch.id, (r) => countAnswer(r, result, Date.now(), ctx.config.retentionMs));
  if (!changed || !record) return;
  batchMetrics().items.add(1, { endpoint: batch.endpoint, outcome: result.state });
  if (record.status === 'done') await ctx.onEnded(record);
}
