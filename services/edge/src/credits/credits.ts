/**
 * Credits move in two steps around the work: reserve (atomic, refuses with 402 beyond the limit)
 * and settle (charge only when the response is 200 with success true, refund otherwise). A
 * reservation not settled by `expiresAt` (the edge crashed) is refunded by the sweeper.
 */
import { CREDIT_COSTS, type PaidEndpoint } from '@enrich/shared/contracts';
import { EDGE_STATUS, EdgeHttpError } from '../errors.ts';
import type { Store } from '../store/port.ts';

export interface Reservation {
  keyId: string;
  requestId: string;
  endpoint: PaidEndpoint;
  amount: number;
  credits_used: number;
  credits_limit: number;
}

export function creditHeaders(r: { credits_used: number; credits_limit: number }): Record<string, string> {
  return { 'x-credits-used': String(r.credits_used), 'x-credits-limit': String(r.credits_limit) };
}

export async function reserveCredits(store: Store, r: { keyId: string; requestId: string; endpoint: PaidEndpoint; ttlMs: number }): Promise<Reservation> {
  const amount = CREDIT_COSTS[r.endpoint];
  const result = await store.reserveCredits({ keyId: r.keyId, requestId: r.requestId, amount, endpoint: r.endpoint, expiresAt: Date.now() + r.ttlMs });
  if (!result.ok) {
    if (result.reason === 'insufficient_credits') throw new EdgeHttpError(EDGE_STATUS.CREDITS_EXHAUSTED, 'Credit limit exceeded', creditHeaders(result));
    // The key vanished or was revoked between authentication and reservation.
    throw new EdgeHttpError(EDGE_STATUS.UNAUTHENTICATED, 'Invalid API key');
  }
  return { keyId: r.keyId, requestId: r.requestId, endpoint: r.endpoint, amount, credits_used: result.credits_used, credits_limit: result.credits_limit };
}

/** Runs the sweeper now and every `intervalMs`; returns a stop function. */
export function startReservationSweeper(
  store: Store,
  opts: { intervalMs: number; onSwept: (refunded: number, credits: number) => void; onError: (err: unknown) => void },
): () => void {
  let running: Promise<void> | undefined;
  const sweep = (): void => {
    if (running) return;
    running = store
      .sweepExpiredReservations(Date.now())
      .then((r) => {
        if (r.refunded > 0) opts.onSwept(r.refunded, r.credits);
      }, opts.onError)
      .finally(() => {
        running = undefined;
      });
  };
  sweep();
  const timer = setInterval(sweep, opts.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
