/**
 * `Idempotency-Key` on the paid endpoints (Stripe's convention). A retry with the same key, the same
 * API key and the same method, path and normalised query within 24 h gets the first answer again
 * (same status and body, plus `Idempotent-Replayed: true`) and is not charged again. The same key with
 * other parameters is a 422; while the first request is still running, a 409.
 *
 * Stored for replay: 200s and final errors (400 refusals decided after the claim, 502 unreachable
 * targets). Not stored (the key is released, so a retry runs again): 402, 429, 500, 503 and 504,
 * where trying again can succeed. Requests refused before the claim (401, 429, invalid parameters or
 * an invalid header) never touch the key.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EDGE_STATUS, EdgeHttpError } from './errors.ts';
import type { Store, StoredAnswer } from './store/port.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
const MAX_KEY_CHARS = 255;
/** Final answers a retry would get again anyway. */
const STORED_STATUSES = new Set([200, 400, 502]);
/** The headers that belong to an answer (the rest, such as X-Request-Id and rate limits, are per request). */
const ANSWER_HEADERS = ['content-type', 'x-credits-used', 'x-credits-limit'];

/** The header's value, undefined when absent; a 400 naming the problem when it is not a valid key. */
export function readIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header))
    throw new EdgeHttpError(EDGE_STATUS.INVALID_IDEMPOTENCY_KEY, `Invalid Idempotency-Key header: given ${header.length} times; give it once`);
  if (header.length < 1 || header.length > MAX_KEY_CHARS) {
    throw new EdgeHttpError(
      EDGE_STATUS.INVALID_IDEMPOTENCY_KEY,
      `Invalid Idempotency-Key header: got ${header.length} characters, allowed: 1 to ${MAX_KEY_CHARS} printable ASCII characters (a UUID is a good key)`,
    );
  }
  if (!/^[\x20-\x7e]+$/.test(header))
    throw new EdgeHttpError(
      EDGE_STATUS.INVALID_IDEMPOTENCY_KEY,
      'Invalid Idempotency-Key header: it contains a character that is not printable ASCII; allowed: 1 to 255 printable ASCII characters',
    );
  return header;
}

/** What the key was used for: method, path and the normalised, validated query (sorted). */
export function requestFingerprint(method: string, path: string, query: Record<string, unknown>): string {
  const entries = Object.entries(query)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256')
    .update(JSON.stringify([method.toUpperCase(), path, entries]))
    .digest('hex');
}

/**
 * Claims the key for this request, or: returns the first answer to replay, or throws 409 (still
 * running) / 422 (other parameters). When claimed, the answer is stored (or the key released) by the
 * onSend hook, before the client sees it.
 */
export async function claimIdempotencyKey(
  store: Store,
  request: FastifyRequest,
  c: { scope: string; key: string; fingerprint: string; lockMs: number },
): Promise<StoredAnswer | null> {
  const claim = await store.claimIdempotencyKey({
    scope: c.scope,
    key: c.key,
    fingerprint: c.fingerprint,
    requestId: request.id,
    now: Date.now(),
    lockMs: c.lockMs,
  });
  switch (claim.state) {
    case 'claimed':
      request.edge.idempotency = { scope: c.scope, key: c.key };
      return null;
    case 'done':
      return claim.answer;
    case 'in_flight':
      throw new EdgeHttpError(
        EDGE_STATUS.IDEMPOTENCY_IN_PROGRESS,
        'A request with this Idempotency-Key is still in progress; retry once it has finished to get its answer',
        { 'retry-after': '1' },
      );
    case 'mismatch':
      throw new EdgeHttpError(
        EDGE_STATUS.IDEMPOTENCY_KEY_REUSED,
        'This Idempotency-Key was already used with other parameters (method, path or query); use a new key for a different request',
      );
  }
}

export function sendReplay(reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  return reply
    .code(answer.status)
    .headers({ ...answer.headers, [REPLAYED_HEADER]: 'true' })
    .send(answer.body);
}

/** Stores the claimed request's answer (or releases its key) before the answer leaves. */
export function registerIdempotencyHook(app: FastifyInstance, store: Store): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const claimed = request.edge?.idempotency;
    if (!claimed) return payload;
    request.edge.idempotency = undefined;
    const answer: StoredAnswer | null =
      STORED_STATUSES.has(reply.statusCode) && typeof payload === 'string' ? { status: reply.statusCode, body: payload, headers: answerHeaders(reply) } : null;
    // A failure here leaves the claim locked until it expires (then a retry takes it over): logged, not fatal.
    await store
      .finishIdempotencyKey({ ...claimed, requestId: request.id, answer })
      .catch((err: unknown) => request.log.warn({ err }, 'could not store the Idempotency-Key answer'));
    return payload;
  });
}

function answerHeaders(reply: FastifyReply): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ANSWER_HEADERS) {
    const v = reply.getHeader(name);
    if (v !== undefined) out[name] = String(v);
  }
  return out;
}
