/**
 * The webhook a batch calls once when it ends (done, cancelled, stopped_credits). Delivery is a
 * message on the batch stream (`<prefix>.batch.hook.<id>`, msgID hook.<id>, so it is enqueued once),
 * consumed by the `hooks` consumer of whichever edge is running: a failed call is naked with a
 * doubling delay and retried up to WEBHOOK_MAX_ATTEMPTS deliveries, surviving edge restarts.
 *
 * Guarded like any target: http(s) only, every address the host resolves to must be public (or in
 * ALLOW_PRIVATE_TARGETS), checked again at each call, and the connection goes to the address that was
 * checked (no DNS rebinding between check and connect). Redirects are not followed.
 *
 * Signed: `X-Enrich-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>` with
 * `X-Enrich-Timestamp: <unix seconds>`; the secret is the key's (keys CLI `webhook-secret`).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isForbiddenTarget, parseAllowList, resolveAll } from '@enrich/shared/net';
import type { BatchWebhookBody } from '@enrich/shared/contracts';

export const SIGNATURE_HEADER = 'x-enrich-signature';
export const TIMESTAMP_HEADER = 'x-enrich-timestamp';

export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** For receivers (and tests): constant-time check of a signature header against the body. */
export function verifyWebhook(secret: string, timestamp: string, body: string, signature: string): boolean {
  const expected = Buffer.from(signWebhook(secret, Number(timestamp), body));
  const given = Buffer.from(signature);
  return /^\d+$/.test(timestamp) && expected.length === given.length && timingSafeEqual(expected, given);
}

export type DeliveryOutcome = { ok: true; status: number } | { ok: false; permanent: boolean; error: string };

function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address) === 6 ? 6 : 4;
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function post(url: URL, address: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<number> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: pinnedLookup(address), timeout: timeoutMs },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

export async function deliverWebhook(opts: {
  url: string;
  secret: string;
  body: BatchWebhookBody;
  attempt: number;
  allowPrivateTargets: string[];
  timeoutMs: number;
  now?: number;
}): Promise<DeliveryOutcome> {
  const verdict = await isForbiddenTarget(opts.url, { resolve: resolveAll, allow: parseAllowList(opts.allowPrivateTargets.join(',')) });
  if (!verdict.ok) return { ok: false, permanent: verdict.kind === 'forbidden', error: `webhook refused: ${verdict.reason}` };
  const text = JSON.stringify(opts.body);
  const timestamp = Math.floor((opts.now ?? Date.now()) / 1000);
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'user-agent': 'enrich-webhook/1',
    [SIGNATURE_HEADER]: signWebhook(opts.secret, timestamp, text),
    [TIMESTAMP_HEADER]: String(timestamp),
    'x-enrich-batch-id': opts.body.batch.id,
    'x-enrich-delivery-attempt': String(opts.attempt),
  };
  try {
    const status = await post(new URL(opts.url), verdict.addresses[0]!, text, headers, opts.timeoutMs);
    if (status >= 200 && status < 300) return { ok: true, status };
    return { ok: false, permanent: false, error: `webhook answered HTTP ${status}` };
  } catch (err) {
    return { ok: false, permanent: false, error: `webhook call failed: ${(err as Error).message}` };
  }
}

/** Delay before delivery attempt `attempt + 1`: base x 2^(attempt-1), at most 10 minutes. */
export function webhookBackoffMs(baseMs: number, attempt: number): number {
  return Math.min(600_000, baseMs * 2 ** Math.max(0, attempt - 1));
}
