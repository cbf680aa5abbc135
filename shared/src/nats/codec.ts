/**
 * Message bodies: JSON, gzip-compressed above a small size (HTML compresses 5-10x, so most
 * snapshots then fit in one message), and sent by claim check when still over the server's
 * max_payload. Receivers undo whatever the headers say, so callers only see objects.
 */
import { headers as natsHeaders, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { putClaim, takeClaim } from './claim-check.ts';
import { H } from './headers.ts';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

const COMPRESS_ABOVE = 16 * 1024;
/** Room left under max_payload for headers (trace context, ids). */
const HEADER_ROOM = 16 * 1024;

export function maxBody(nc: NatsConnection): number {
  const max = nc.info?.max_payload ?? 1024 * 1024;
  return Math.max(1024, max - HEADER_ROOM);
}

export interface Encoded {
  body: Uint8Array;
  headers: MsgHdrs;
}

export async function encodeBody(nc: NatsConnection, value: unknown, hdrs: MsgHdrs = natsHeaders()): Promise<Encoded> {
  let body: Uint8Array = Buffer.from(JSON.stringify(value));
  if (body.byteLength > COMPRESS_ABOVE) {
    body = await gzipAsync(body, { level: 4 });
    hdrs.set(H.encoding, 'gzip');
  }
  if (body.byteLength > maxBody(nc)) {
    hdrs.set(H.claimCheck, await putClaim(nc, body));
    body = new Uint8Array(0);
  }
  return { body, headers: hdrs };
}

export async function decodeBody(nc: NatsConnection, data: Uint8Array, hdrs: MsgHdrs | undefined): Promise<unknown> {
  let body = data;
  const claim = hdrs?.get(H.claimCheck);
  if (claim) body = await takeClaim(nc, claim);
  if (hdrs?.get(H.encoding) === 'gzip') body = await gunzipAsync(body);
  if (body.byteLength === 0) return undefined;
  return JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
}
