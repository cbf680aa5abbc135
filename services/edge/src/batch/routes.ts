/**
 * POST /batch, GET /batch/{id}, DELETE /batch/{id}. Each is one authenticated request (per-IP and
 * per-key windows as usual, free); the items are charged one by one as they run. A batch is visible
 * only to the key that created it: any other key gets the same 404 as an unknown id.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CREDIT_COSTS, type BatchItemResult, type BatchPage } from '@enrich/shared/contracts';
import type { EdgeDeps } from '../deps.ts';
import { authenticate, API_KEY_HEADER } from '../auth/authenticate.ts';
import { creditHeaders } from '../credits/credits.ts';
import { sendData } from '../envelope.ts';
import { EDGE_STATUS, EdgeHttpError } from '../errors.ts';
import { edgeMetrics } from '../metrics.ts';
import { parseQuery, type RawQuery } from '../params.ts';
import { checkKeyLimit, rateLimitHeaders } from '../rate-limit/limits.ts';
import type { ApiKeyRecord } from '../store/port.ts';
import { TERMINAL, toInfo, type BatchRecord } from './record.ts';
import type { BatchService } from './service.ts';
import { checkWebhookUrl, validateBatch } from './validate.ts';

/** Items of 2048-character URLs with every parameter, 10,000 of them, fit. */
export const BATCH_BODY_LIMIT = 32 * 1024 * 1024;
export const PAGE_DEFAULT = 100;
export const PAGE_MAX = 1000;

const LIMIT_ALLOWED = `a whole number from 1 to ${PAGE_MAX}`;
const PageQuery = z.strictObject({
  cursor: z
    .string()
    .regex(/^\d{1,6}$/, { message: 'the nextCursor of a previous page' })
    .transform(Number)
    .optional(),
  limit: z
    .string()
    .regex(/^\d+$/, { message: LIMIT_ALLOWED })
    .transform(Number)
    .pipe(z.number().int().min(1, { message: LIMIT_ALLOWED }).max(PAGE_MAX, { message: LIMIT_ALLOWED }))
    .default(PAGE_DEFAULT),
});
const NoQuery = z.strictObject({});

async function admit(deps: EdgeDeps, request: FastifyRequest, reply: FastifyReply): Promise<ApiKeyRecord> {
  request.edge.endpoint = 'batch';
  // The store itself, not the key cache: POST /batch checks the key's credits from this record.
  const key = await authenticate(deps.store, request.headers[API_KEY_HEADER]);
  request.edge.keyId = key.id;
  try {
    reply.headers(rateLimitHeaders(await checkKeyLimit(deps.windows, key.id, key.rate_limit)));
  } catch (err) {
    edgeMetrics().rateLimitRejections.add(1, { scope: 'key', endpoint: 'batch' });
    throw err;
  }
  return key;
}

async function owned(batch: BatchService, id: string, key: ApiKeyRecord): Promise<BatchRecord> {
  const rec = await batch.store.get(id);
  if (!rec || rec.keyId !== key.id) throw new EdgeHttpError(EDGE_STATUS.NOT_FOUND, `No batch ${JSON.stringify(id.slice(0, 80))} for this API key`);
  return rec;
}

async function page(batch: BatchService, rec: BatchRecord, cursor: number, limit: number): Promise<BatchPage> {
  const from = Math.min(cursor, rec.total);
  const indexes = Array.from({ length: Math.min(limit, rec.total - from) }, (_, i) => from + i);
  const stored = await batch.store.getResults(rec.id, indexes);
  const ended = TERMINAL.has(rec.status);
  const results = indexes.map((index, i): BatchItemResult => stored[i] ?? { index, state: ended ? 'skipped' : 'pending' });
  const next = from + indexes.length;
  return { ...toInfo(rec), results, nextCursor: next < rec.total ? String(next) : null };
}

export function registerBatchRoutes(app: FastifyInstance, deps: EdgeDeps, batch: BatchService): void {
  app.post('/batch', { bodyLimit: BATCH_BODY_LIMIT }, async (request, reply) => {
    const key = await admit(deps, request, reply);
    parseQuery(NoQuery, request.query as RawQuery);
    const valid = validateBatch(request.body);
    if (valid.webhook) valid.webhook = await checkWebhookUrl(valid.webhook, { allowPrivateTargets: deps.config.allowPrivateTargets });
    // Not a reservation (items reserve one by one), only a refusal of a batch that could not run one item.
    if (key.credits_used + CREDIT_COSTS[valid.endpoint] > key.credits_limit)
      throw new EdgeHttpError(EDGE_STATUS.CREDITS_EXHAUSTED, 'Credit limit exceeded', creditHeaders(key));
    const span = request.span?.spanContext();
    const rec = await batch.submit(key.id, valid, span ? { traceId: span.traceId, spanId: span.spanId, traceFlags: span.traceFlags } : null);
    request.span?.setAttribute('enrich.batch_id', rec.id);
    const statusUrl = `/batch/${rec.id}`;
    reply.header('location', statusUrl);
    return sendData(request, reply, { id: rec.id, status: rec.status, statusUrl, total: rec.total }, 202);
  });

  app.get('/batch/:id', async (request, reply) => {
    const key = await admit(deps, request, reply);
    const q = parseQuery(PageQuery, request.query as RawQuery);
    const rec = await owned(batch, (request.params as { id: string }).id, key);
    return sendData(request, reply, await page(batch, rec, q.cursor ?? 0, q.limit));
  });

  app.delete('/batch/:id', async (request, reply) => {
    const key = await admit(deps, request, reply);
    parseQuery(NoQuery, request.query as RawQuery);
    const rec = await owned(batch, (request.params as { id: string }).id, key);
    if (TERMINAL.has(rec.status)) throw new EdgeHttpError(EDGE_STATUS.BATCH_ENDED, `Batch ${rec.id} has already ended (${rec.status}); nothing to cancel`);
    const { record } = await batch.cancel(rec.id);
    return sendData(request, reply, toInfo(record ?? rec));
  });
}
