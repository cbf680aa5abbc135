/**
 * The store port: API keys, credits, rate-limit windows and the usage log behind one interface, so
 * NATS JetStream KV (default) and MongoDB (production) are interchangeable. Both implementations
 * pass the same conformance suite (conformance.ts).
 *
 * Credits are reserved before the work and settled after it. An open reservation lives inside the
 * key's own record (`pending`), so reserving (check + increment + remember) and settling (forget +
 * maybe refund) are each ONE atomic update of one record: a crash between the two can leave a
 * reservation open, never half-applied, and the sweeper refunds it once it expires. The requestId is
 * the idempotency key: reserving or settling the same request twice changes nothing the second time.
 */

export interface PendingReservation {
  requestId: string;
  amount: number;
  endpoint: string;
  /** Epoch ms after which the sweeper refunds it. */
  expiresAt: number;
}

export interface ApiKeyRecord {
  id: string;
  name: string;
  /** SHA-256 of the plaintext key, lowercase hex. The plaintext is never stored. */
  hash: string;
  credits_limit: number;
  /** Cumulative credits charged, including open reservations. Never exceeds credits_limit. */
  credits_used: number;
  /** Requests allowed per sliding minute. */
  rate_limit: number;
  revoked: boolean;
  created_at: string;
  pending: PendingReservation[];
}

export interface NewApiKey {
  id: string;
  name: string;
  hash: string;
  credits_limit: number;
  rate_limit: number;
}

export interface KeyLimitsUpdate {
  credits_limit?: number;
  rate_limit?: number;
}

export type ReserveResult =
  | { ok: true; credits_used: number; credits_limit: number; duplicate: boolean }
  | { ok: false; reason: 'insufficient_credits' | 'unknown_key' | 'revoked'; credits_used: number; credits_limit: number };

export type SettleOutcome = 'charge' | 'refund';

export interface SettleResult {
  /** False when the reservation was already settled or swept (nothing changed). */
  applied: boolean;
  credits_used: number;
  credits_limit: number;
}

export interface WindowHit {
  allowed: boolean;
  limit: number;
  /**
   * The weighted request count after this hit (a rejected hit is not counted), rounded up:
   * previous window x the part of it still inside the sliding minute, plus the current window.
   */
  count: number;
  /** How many more requests would be admitted right now. */
  remaining: number;
  /** Milliseconds until the weighted count is back to zero if no more requests come (0 when it is). */
  resetMs: number;
  /** When rejected: milliseconds until the next request would be admitted (at least 1). */
  retryAfterMs: number;
}

/**
 * A sliding-window counter for one subject: the hits of the current fixed window (aligned to a
 * multiple of windowMs) and of the one before it. O(1) whatever the limit.
 */
export interface WindowCounter {
  /** Epoch ms at which the current fixed window began; a multiple of windowMs. */
  start: number;
  prev: number;
  cur: number;
}

export interface UsageEntry {
  requestId: string;
  keyId: string;
  endpoint: string;
  status: number;
  credits: number;
  durationMs: number;
  /** ISO 8601 UTC. */
  timestamp: string;
}

export interface SweepResult {
  refunded: number;
  credits: number;
}

export interface Store {
  readonly kind: 'kv' | 'mongo';
  /** Creates buckets/collections and indexes; idempotent. */
  init(): Promise<void>;
  /** Throws when the store does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;

  createKey(key: NewApiKey): Promise<ApiKeyRecord>;
  getKey(id: string): Promise<ApiKeyRecord | null>;
  findKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
  listKeys(): Promise<ApiKeyRecord[]>;
  updateKeyLimits(id: string, update: KeyLimitsUpdate): Promise<ApiKeyRecord | null>;
  revokeKey(id: string): Promise<ApiKeyRecord | null>;

  /** Atomically: credits_used + amount <= credits_limit, then credits_used += amount and remember the reservation. */
  reserveCredits(r: { keyId: string; requestId: string; amount: number; endpoint: string; expiresAt: number }): Promise<ReserveResult>;
  /** Closes a reservation: `charge` keeps the credits, `refund` gives them back. Idempotent by requestId. */
  settleCredits(s: { keyId: string; requestId: string; outcome: SettleOutcome }): Promise<SettleResult>;
  /** Refunds every reservation whose expiresAt <= now. Safe to run from several instances at once. */
  sweepExpiredReservations(now: number): Promise<SweepResult>;

  /**
   * Sliding-window counter (see slideCounter): counts this hit if the weighted count of the last
   * `windowMs` plus this hit stays within `limit`. A rejected hit changes nothing.
   */
  hitWindow(subject: string, limit: number, now: number, windowMs: number): Promise<WindowHit>;

  recordUsage(entry: UsageEntry): Promise<void>;
  /** Newest first. */
  listUsage(keyId: string, limit: number): Promise<UsageEntry[]>;
}

/**
 * The sliding-window counter decision shared by both implementations (pure, so it is tested once).
 *
 * The sliding minute ending now covers the part of the previous fixed window not yet left behind,
 * so the estimate is prev x (1 - elapsed / windowMs) + cur, the approximation Cloudflare and others
 * use. It assumes the previous window's hits were spread evenly; see the README for the bound.
 * Everything is computed in integer milliseconds (both sides scaled by windowMs) so a decision at a
 * boundary is exact and identical in KV and in MongoDB's pipeline.
 *
 * A `now` before the stored window (another instance's clock slightly ahead) counts as the start of
 * the stored window: counts never run backwards.
 */
export function slideCounter(state: WindowCounter | null, limit: number, now: number, windowMs: number): { state: WindowCounter; hit: WindowHit } {
  const rolled = rollCounter(state, now, windowMs);
  const elapsed = Math.max(0, now - rolled.start);
  const allowed = weighted(rolled.prev, rolled.cur + 1, elapsed, windowMs) <= limit * windowMs;
  const next: WindowCounter = allowed ? { ...rolled, cur: rolled.cur + 1 } : rolled;
  const scaled = weighted(next.prev, next.cur, elapsed, windowMs);
  const resetAt = next.cur > 0 ? next.start + 2 * windowMs : next.prev > 0 ? next.start + windowMs : now;
  return {
    state: next,
    hit: {
      allowed,
      limit,
      count: Math.ceil(scaled / windowMs),
      remaining: Math.max(0, Math.floor((limit * windowMs - scaled) / windowMs)),
      resetMs: Math.max(0, resetAt - now),
      retryAfterMs: allowed ? 0 : Math.max(1, admitsAt(next, limit, windowMs) - now),
    },
  };
}

/** The counter as seen from `now`'s fixed window: the window moves on, counts older than one window drop. */
export function rollCounter(state: WindowCounter | null, now: number, windowMs: number): WindowCounter {
  const start = Math.floor(now / windowMs) * windowMs;
  if (!state || state.start < start - windowMs) return { start, prev: 0, cur: 0 };
  if (state.start === start - windowMs) return { start, prev: state.cur, cur: 0 };
  return state; // the same window, or a later one (clock skew)
}

/** The weighted count scaled by windowMs: prev x (windowMs - elapsed) + cur x windowMs. */
function weighted(prev: number, cur: number, elapsed: number, windowMs: number): number {
  return prev * Math.max(0, windowMs - elapsed) + cur * windowMs;
}

/**
 * The earliest epoch ms at which one more hit is admitted, if nothing else is admitted before: in the
 * current window once the previous window's weight has decayed enough, else in the next window (where
 * the current count becomes the decaying one), else in the one after (then nothing counts any more).
 */
function admitsAt(c: WindowCounter, limit: number, windowMs: number): number {
  if (limit < 1) return c.start + windowMs; // never admits; ask again in a window
  // In window w with counts (p, k): admitted once p x (windowMs - e) <= (limit - k - 1) x windowMs.
  const earliestElapsed = (p: number, k: number): number | null => {
    const room = (limit - k - 1) * windowMs;
    if (room < 0) return null;
    if (p === 0) return 0;
    const e = windowMs - Math.floor(room / p);
    return e < windowMs ? Math.max(0, e) : null;
  };
  const here = earliestElapsed(c.prev, c.cur);
  if (here !== null) return c.start + here;
  const next = earliestElapsed(c.cur, 0);
  if (next !== null) return c.start + windowMs + next;
  return c.start + 2 * windowMs;
}
