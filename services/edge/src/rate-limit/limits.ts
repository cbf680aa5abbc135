/**
 * The two rate limits, both exact sliding one-minute windows of 5 s buckets (slideWindow in
 * store/port.ts) kept in the shared store so they hold across every edge instance: per client IP (all
 * endpoints but the probes; IPv6 per /64, see client-ip.ts) and per API key (the count configured on
 * the key). A rejected request is not counted and costs nothing. The checks go through this
 * instance's cache (local-windows.ts): leased hits and remembered refusals, never more than the limit.
 */
import { EDGE_STATUS, EdgeHttpError } from '../errors.ts';
import type { WindowHit } from '../store/port.ts';
import type { WindowCounter } from './local-windows.ts';
import { ipSubject } from './client-ip.ts';

export const WINDOW_MS = 60_000;

function retryAfterSeconds(hit: WindowHit): number {
  return Math.max(1, Math.ceil(hit.retryAfterMs / 1000));
}

export function rateLimitHeaders(hit: WindowHit): Record<string, string> {
  return {
    'x-ratelimit-limit': String(hit.limit),
    'x-ratelimit-remaining': String(hit.remaining),
    // Seconds until nothing counts any more (delta seconds, as in the IETF RateLimit draft).
    'x-ratelimit-reset': String(Math.ceil(hit.resetMs / 1000)),
  };
}

export async function checkIpLimit(windows: WindowCounter, ip: string, limitPerMin: number, ipv6Prefix: number, now = Date.now()): Promise<WindowHit> {
  const hit = await windows.hit(ipSubject(ip, ipv6Prefix), limitPerMin, now, WINDOW_MS);
  if (!hit.allowed) {
    const s = retryAfterSeconds(hit);
    throw new EdgeHttpError(EDGE_STATUS.RATE_LIMITED, `Rate limit exceeded: ${limitPerMin} requests per minute per IP address; retry in ${s} s`, {
      'retry-after': String(s),
    });
  }
  return hit;
}

export async function checkKeyLimit(windows: WindowCounter, keyId: string, limitPerMin: number, now = Date.now()): Promise<WindowHit> {
  const hit = await windows.hit(`key:${keyId}`, limitPerMin, now, WINDOW_MS);
  if (!hit.allowed) {
    const s = retryAfterSeconds(hit);
    throw new EdgeHttpError(EDGE_STATUS.RATE_LIMITED, `Rate limit exceeded: this API key allows ${limitPerMin} requests per minute; retry in ${s} s`, {
      'retry-after': String(s),
      ...rateLimitHeaders(hit),
    });
  }
  return hit;
}
