/**
 * The life of a paid request, the same for every data endpoint: authenticate, per-key window,
 * validate, claim the Idempotency-Key (or replay its first answer), reserve credits, orchestrate
 * within the budget (through the result cache), validate the answer, settle (charge on 200 + success,
 * refund on anything else; a charge that cannot be committed is refunded and answered as an error),
 * answer with credit, cache and rate-limit headers.
 * `executePaid` (reserve -> run through the cache -> validate -> settle) is the part a batch item
 * shares with a single request: the batch worker calls it too, so both charge and orchestrate exactly
 * alike. Idempotency-Key stays with the HTTP route (batch items derive their own request ids).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { PaidEndpoint } from '@enrich/shared/contracts';
import { authenticate, API_KEY_HEADER } from '../auth/authenticate.ts';
import type { CacheAnswer } from '../cache/cache.ts';
import { answerThroughCache, cacheHeaders, countCacheAnswer } from '../cache/route.ts';
import { creditHeaders, reserveCredits, type Reservation } from '../credits/credits.ts';
import { sendData } from '../envelope.ts';
import { claimIdempotencyKey, IDEMPOTENCY_HEADER, readIdempotencyKey, requestFingerprint, sendReplay } from '../idempotency.ts';
import { edgeMetrics } from '../metrics.ts';
import type { Budget } from '../orchestrate.ts';
import { normalizeTargetUrl, parseQuery, type RawQuery } from '../params.ts';
import { checkKeyLimit, rateLimitHeaders } from '../rate-limit/limits.ts';
import type { SettleResult } from '../store/port.ts';
import { targetGuard } from '../target-guard.ts';
import type { EdgeDeps } from '../deps.ts';

export interface PaidRouteSpec<Q extends z.ZodObject, D extends z.ZodType> {
  path: string;
  endpoint: PaidEndpoint;
  query: Q;
  data: D;
  summary: string;
  run(budget: Budget, url: string, query: z.infer<Q>): Promise<z.infer<D>>;
}

/** What the paid path logs with (a request's logger, or a batch item's). */
export interface PaidLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** One paid unit of work, from an HTTP request or a batch item. */
export interface PaidWork<Q extends z.ZodObject> {
  keyId: string;
  requestId: string;
  /** Normalised and already past the target guard. */
  url: string;
  /** The parsed query; its `maxAge` says which cached answers are accepted. */
  query: z.infer<Q>;
  /** Epoch ms the request budget counts from. */
  startedAt: number;
  log: PaidLog;
}

/**
 * Called after the work and before the settlement (charge or refund): a batch item records its
 * answer here, so a crash after settling can never leave a charged item without its answer. Once it
 * has accepted a successful answer (returned without throwing), that answer stands: a charge that
 * then fails is NOT refunded (the reservation stays open, the caller settles it again; a batch item's
 * redelivery does), or a stored, delivered answer would end up free.
 */
export type BeforeSettle<D> = (outcome: { ok: true; data: D } | { ok: false; error: unknown }, reservation: Reservation) => Promise<void>;

export interface PaidResult<D> {
  answer: CacheAnswer<D>;
  reservation: Reservation;
  settled: SettleResult;
}

/** Runs the work through the result cache (answerThroughCache wants only a request's logger). */
async function runThroughCache<Q extends z.ZodObject, D extends z.ZodType>(
  deps: EdgeDeps,
  spec: PaidRouteSpec<Q, D>,
  work: PaidWork<Q>,
): Promise<CacheAnswer<z.infer<D>>> {
  const budget: Budget = {
    nc: deps.nc,
    requestId: work.requestId,
    deadline: work.startedAt + deps.config.requestBudgetMs,
    budgetMs: deps.config.requestBudgetMs,
    log: work.log,
  };
  return answerThroughCache(deps.cache, spec, { request: { log: work.log }, url: work.url, query: work.query, budget, startedAt: work.startedAt });
}

/**
 * reserve -> run within the budget, through the cache -> validate the answer -> settle (charge;
 * refund on any failure, including a charge that cannot be committed). Cached or shared answers are
 * charged like fresh ones (docs/api.md, "Result cache").
 */
export async function executePaid<Q extends z.ZodObject, D extends z.ZodType>(
  deps: EdgeDeps,
  spec: PaidRouteSpec<Q, D>,
  work: PaidWork<Q>,
  beforeSettle?: BeforeSettle<z.infer<D>>,
): Promise<PaidResult<z.infer<D>>> {
  const reservation: Reservation = await reserveCredits(deps.store, {
    keyId: work.keyId,
    requestId: work.requestId,
    endpoint: spec.endpoint,
    ttlMs: deps.config.reservationTtlMs,
  });
  let charged = false;
  let answerKept = false;
  try {
    let answer: CacheAnswer<z.infer<D>>;
    try {
      answer = await runThroughCache(deps, spec, work);
    } catch (error) {
      await beforeSettle?.({ ok: false, error }, reservation);
      throw error;
    }
    await beforeSettle?.({ ok: true, data: answer.data }, reservation);
    answerKept = beforeSettle !== undefined;
    const settled = await deps.store.settleCredits({ keyId: work.keyId, requestId: work.requestId, outcome: 'charge' });
    charged = true;
    if (settled.applied) edgeMetrics().creditsCharged.add(reservation.amount, { endpoint: spec.endpoint });
    countCacheAnswer(spec.endpoint, answer);
    return { answer, reservation, settled };
  } finally {
    if (!charged && !answerKept) await refund(deps, work.log, reservation);
  }
}

export function registerPaidRoute<Q extends z.ZodObject, D extends z.ZodType>(app: FastifyInstance, deps: EdgeDeps, spec: PaidRouteSpec<Q, D>): void {
  const guardTarget = targetGuard(deps.config.allowPrivateTargets);
  app.get(spec.path, async (request: FastifyRequest, reply: FastifyReply) => {
    const state = request.edge;
    state.endpoint = spec.endpoint;
    const key = await authenticate(deps.keys, request.headers[API_KEY_HEADER]);
    state.keyId = key.id;
    try {
      const window = await checkKeyLimit(deps.windows, key.id, key.rate_limit, deps.now?.());
      reply.headers(rateLimitHeaders(window));
    } catch (err) {
      edgeMetrics().rateLimitRejections.add(1, { scope: 'key', endpoint: spec.endpoint });
      throw err;
    }
    const query = parseQuery(spec.query, request.query as RawQuery);
    const url = guardTarget(normalizeTargetUrl((query as { url: string }).url));
    const idempotencyKey = readIdempotencyKey(request.headers[IDEMPOTENCY_HEADER]);
    if (idempotencyKey !== undefined) {
      const fingerprint = requestFingerprint(request.method, spec.path, { ...(query as Record<string, unknown>), url });
      const replay = await claimIdempotencyKey(deps.store, request, { scope: key.id, key: idempotencyKey, fingerprint, lockMs: deps.config.reservationTtlMs });
      if (replay) return sendReplay(reply, replay); // the first answer again, charged once
    }

    const { answer, reservation, settled } = await executePaid(deps, spec, {
      keyId: key.id,
      requestId: request.id,
      url,
      query,
      startedAt: state.startedAt,
      log: request.log,
    });
    // Not applied: the sweeper closed the reservation first (as a refund), so this answer is free.
    state.credits = settled.applied ? reservation.amount : 0;
    // If the sweeper got there first (budget > reservation TTL), the request was not charged: say so truthfully.
    reply.headers(creditHeaders(settled.applied ? settled : reservation));
    reply.headers(cacheHeaders(answer));
    return sendData(request, reply, answer.data);
  });
}

async function refund(deps: EdgeDeps, log: PaidLog, reservation: Reservation): Promise<void> {
  try {
    const r = await deps.store.settleCredits({ keyId: reservation.keyId, requestId: reservation.requestId, outcome: 'refund' });
    if (r.applied) edgeMetrics().creditsRefunded.add(reservation.amount, { endpoint: reservation.endpoint, reason: 'failed' });
  } catch (err) {
    // The reservation stays open and the sweeper refunds it when it expires.
    log.error({ err }, 'refund failed; the sweeper will return the credits when the reservation expires');
  }
}
