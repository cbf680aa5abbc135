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
  /** Requests counted in the window after this hit (a rejected hit is not counted). */
  count: number;
  remaining: number;
  /** Milliseconds until the oldest counted request leaves the window (0 when the window is empty). */
  resetMs: number;
  /** When rejected: milliseconds until one slot frees up. */
  retryAfterMs: number;
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

  /** Sliding-window log: counts this hit if fewer than `limit` hits happened in the last `windowMs`. */
  hitWindow(subject: string, limit: number, now: number, windowMs: number): Promise<WindowHit>;

  recordUsage(entry: UsageEntry): Promise<void>;
  /** Newest first. */
  listUsage(keyId: string, limit: number): Promise<UsageEntry[]>;
}

/** The sliding-window decision shared by both implementations (pure, so it is tested once). */
export function slideWindow(hits: number[], limit: number, now: number, windowMs: number): { hits: number[]; hit: WindowHit } {
  const live = hits.filter((t) => t > now - windowMs).sort((a, b) => a - b);
  const allowed = live.length < limit;
  if (allowed) live.push(now);
  const oldest = live[0];
  const resetMs = oldest === undefined ? 0 : Math.max(0, oldest + windowMs - now);
  // The slot that frees first is the (count - limit + 1)-th oldest; with count == limit that is the oldest.
  const freeing = live[Math.max(0, live.length - limit)];
  const retryAfterMs = allowed || freeing === undefined ? 0 : Math.max(1, freeing + windowMs - now);
  return {
    hits: live,
    hit: { allowed, limit, count: live.length, remaining: Math.max(0, limit - live.length), resetMs, retryAfterMs },
  };
}
