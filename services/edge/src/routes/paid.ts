/**
 * The life of a paid request, the same for every data endpoint: authenticate, per-key window,
 * validate, reserve credits, orchestrate within the budget, validate the answer, settle (charge on
 * 200 + success, refund on anything else), answer with credit and rate-limit headers.
 * `executePaid` (reserve -> run -> validate -> settle) is the part a batch item shares with a single
 * request: the batch worker calls it too, so both charge and orchestrate exactly alike.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { PaidEndpoint } from '@enrich/shared/contracts';
import { BadMessageError } from '@enrich/shared/errors';
import { authenticate, API_KEY_HEADER } from '../auth/authenticate.ts';
import { creditHeaders, reserveCredits, type Reservation } from '../credits/credits.ts';
import { sendData } from '../envelope.ts';
import { edgeMetrics } from '../metrics.ts';
import type { Budget } from '../orchestrate.ts';
import { normalizeTargetUrl, parseQuery, type RawQuery } from '../params.ts';
import { checkKeyLimit, rateLimitHeaders } from '../rate-limit/limits.ts';
import type { SettleResult } from '../store/port.ts';
import type { EdgeDeps } from '../app.ts';

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
  url: string;
  query: z.infer<Q>;
  /** Epoch ms the request budget counts from. */
  startedAt: number;
  log: PaidLog;
  /** Result-cache freshness in seconds (batch items pass it; unused until the edge has a cache). */
  maxAge?: number | undefined;
}

/**
 * Called after the work and before the settlement (charge or refund): a batch item records its
 * answer here, so a crash after settling can never leave a charged item without its answer.
 */
export type BeforeSettle<D> = (outcome: { ok: true; data: D } | { ok: false; error: unknown }, reservation: Reservation) => Promise<void>;

export interface PaidResult<D> {
  data: D;
  reservation: Reservation;
  settled: SettleResult;
}

/** reserve -> run within the budget -> validate the answer -> settle (charge; refund on any failure). */
export async function executePaid<Q extends z.ZodObject, D extends z.ZodType>(deps: EdgeDeps, spec: PaidRouteSpec<Q, D>, work: PaidWork<Q>, beforeSettle?: BeforeSettle<z.infer<D>>): Promise<PaidResult<z.infer<D>>> {
  const reservation: Reservation = await reserveCredits(deps.store, { keyId: work.keyId, requestId: work.requestId, endpoint: spec.endpoint, ttlMs: deps.config.reservationTtlMs });
  let charged = false;
  try {
    let data: z.infer<D>;
    try {
      const budget: Budget = { nc: deps.nc, requestId: work.requestId, deadline: work.startedAt + deps.config.requestBudgetMs, budgetMs: deps.config.requestBudgetMs, log: work.log };
      const raw = await spec.run(budget, work.url, work.query);
      const checked = spec.data.safeParse(raw);
      if (!checked.success) {
        work.log.error({ issues: checked.error.issues.slice(0, 5) }, `${spec.path} answer does not match its contract`);
        throw new BadMessageError(`${spec.path} answer does not match its contract`);
      }
      data = checked.data;
    } catch (error) {
      await beforeSettle?.({ ok: false, error }, reservation);
      throw error;
    }
    await beforeSettle?.({ ok: true, data }, reservation);
    const settled = await deps.store.settleCredits({ keyId: work.keyId, requestId: work.requestId, outcome: 'charge' });
    charged = true;
    edgeMetrics().creditsCharged.add(reservation.amount, { endpoint: spec.endpoint });
    return { data, reservation, settled };
  } finally {
    if (!charged) await refund(deps, work.log, reservation);
  }
}

export function registerPaidRoute<Q extends z.ZodObject, D extends z.ZodType>(app: FastifyInstance, deps: EdgeDeps, spec: PaidRouteSpec<Q, D>): void {
  app.get(spec.path, async (request: FastifyRequest, reply: FastifyReply) => {
    const state = request.edge;
    state.endpoint = spec.endpoint;
    const key = await authenticate(deps.store, request.headers[API_KEY_HEADER]);
    state.keyId = key.id;
    try {
      const window = await checkKeyLimit(deps.store, key.id, key.rate_limit);
      reply.headers(rateLimitHeaders(window));
    } catch (err) {
      edgeMetrics().rateLimitRejections.add(1, { scope: 'key', endpoint: spec.endpoint });
      throw err;
    }
    const query = parseQuery(spec.query, request.query as RawQuery);
    const url = normalizeTargetUrl((query as { url: string }).url);

    const { data, reservation, settled } = await executePaid(deps, spec, { keyId: key.id, requestId: request.id, url, query, startedAt: state.startedAt, log: request.log });
    state.credits = reservation.amount;
    // If the sweeper got there first (budget > reservation TTL), the request was not charged: say so truthfully.
    reply.headers(creditHeaders(settled.applied ? settled : reservation));
    return sendData(request, reply, data);
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
