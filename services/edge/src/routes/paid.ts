/**
 * The life of a paid request, the same for every data endpoint: authenticate, per-key window,
 * validate, claim the Idempotency-Key (or replay its first answer), reserve credits, orchestrate
 * within the budget, validate the answer, settle (charge on 200 + success, refund on anything else;
 * a charge that cannot be committed is refunded and answered as an error), answer with credit and
 * rate-limit headers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { PaidEndpoint } from '@enrich/shared/contracts';
import { authenticate, API_KEY_HEADER } from '../auth/authenticate.ts';
import { answerThroughCache, cacheHeaders, countCacheAnswer } from '../cache/route.ts';
import { creditHeaders, reserveCredits, type Reservation } from '../credits/credits.ts';
import { sendData } from '../envelope.ts';
import { claimIdempotencyKey, IDEMPOTENCY_HEADER, readIdempotencyKey, requestFingerprint, sendReplay } from '../idempotency.ts';
import { edgeMetrics } from '../metrics.ts';
import type { Budget } from '../orchestrate.ts';
import { normalizeTargetUrl, parseQuery, type RawQuery } from '../params.ts';
import { checkKeyLimit, rateLimitHeaders } from '../rate-limit/limits.ts';
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

export function registerPaidRoute<Q extends z.ZodObject, D extends z.ZodType>(app: FastifyInstance, deps: EdgeDeps, spec: PaidRouteSpec<Q, D>): void {
  const guardTarget = targetGuard(deps.config.allowPrivateTargets);
  app.get(spec.path, async (request: FastifyRequest, reply: FastifyReply) => {
    const state = request.edge;
    state.endpoint = spec.endpoint;
    const key = await authenticate(deps.store, request.headers[API_KEY_HEADER]);
    state.keyId = key.id;
    try {
      const window = await checkKeyLimit(deps.store, key.id, key.rate_limit, deps.now?.());
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

    const reservation: Reservation = await reserveCredits(deps.store, { keyId: key.id, requestId: request.id, endpoint: spec.endpoint, ttlMs: deps.config.reservationTtlMs });
    let charged = false;
    try {
      const budget: Budget = { nc: deps.nc, requestId: request.id, deadline: state.startedAt + deps.config.requestBudgetMs, budgetMs: deps.config.requestBudgetMs, log: request.log };
      // Cached or shared answers are charged like fresh ones (docs/api.md, "Result cache").
      const answer = await answerThroughCache(deps.cache, spec, { request, url, query, budget, startedAt: state.startedAt });
      const settled = await deps.store.settleCredits({ keyId: key.id, requestId: request.id, outcome: 'charge' });
      charged = true;
      // Not applied: the sweeper closed the reservation first (as a refund), so this answer is free.
      state.credits = settled.applied ? reservation.amount : 0;
      if (settled.applied) edgeMetrics().creditsCharged.add(reservation.amount, { endpoint: spec.endpoint });
      // If the sweeper got there first (budget > reservation TTL), the request was not charged: say so truthfully.
      reply.headers(creditHeaders(settled.applied ? settled : reservation));
      reply.headers(cacheHeaders(answer));
      countCacheAnswer(spec.endpoint, answer);
      return sendData(request, reply, answer.data);
    } finally {
      if (!charged) await refund(deps, request, reservation);
    }
  });
}

async function refund(deps: EdgeDeps, request: FastifyRequest, reservation: Reservation): Promise<void> {
  try {
    const r = await deps.store.settleCredits({ keyId: reservation.keyId, requestId: reservation.requestId, outcome: 'refund' });
    if (r.applied) edgeMetrics().creditsRefunded.add(reservation.amount, { endpoint: reservation.endpoint, reason: 'failed' });
  } catch (err) {
    // The reservation stays open and the sweeper refunds it when it expires.
    request.log.error({ err }, 'refund failed; the sweeper will return the credits when the reservation expires');
  }
}
