/**
 * The store port: API keys, credits, rate-limit windows and the usage log behind one interface, so
 * NATS JetStream KV (default) and MongoDB (production) are interchangeable. Both implementations
 * pass the same conformance suite (test/support/store-conformance.ts).
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
  /** Hits this call counted: 1 for an admitted hit, 0 for a rejected one; up to `want` for a lease. */
  granted: number;
  limit: number;
  /** Hits counted in the window after this one (a rejected hit is not counted). */
  count: number;
  /** How many more requests would be admitted right now. */
  remaining: number;
  /** Milliseconds until nothing counts any more if no more requests come (0 when nothing counts). */
  resetMs: number;
  /** When rejected: milliseconds until the next request would be admitted (at least 1). */
  retryAfterMs: number;
}

/** Hits whose time fell in [s, s + bucketMs); `s` is a multiple of bucketMs. */
export interface WindowBucket {
  s: number;
  n: number;
}

/**
 * A sliding window for one subject as sub-window buckets: at most windowMs / bucketMs + 1 entries
 * (plus any a skewed clock adds), whatever the limit.
 */
export interface BucketWindow {
  buckets: WindowBucket[];
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

/** An answer kept for Idempotency-Key replays: what the client got the first time. */
export interface StoredAnswer {
  status: number;
  /** The response body as sent. */
  body: string;
  /** The headers that belong to the answer (content type, credits), lowercase names. */
  headers: Record<string, string>;
}

export interface IdempotencyClaimRequest {
  /** Whose key space: the API key id (two customers may use the same Idempotency-Key). */
  scope: string;
  /** The client's Idempotency-Key. */
  key: string;
  /** Hash of method, path and normalised query: what the key was first used for. */
  fingerprint: string;
  requestId: string;
  now: number;
  /** A claim not finished by now + lockMs is abandoned (its edge died) and may be taken over. */
  lockMs: number;
}

export type IdempotencyClaim =
  /** Ours: run the request, then finishIdempotencyKey. */
  | { state: 'claimed' }
  /** The first request with this key and these parameters is still running. */
  | { state: 'in_flight' }
  /** The key was used with other parameters. */
  | { state: 'mismatch' }
  /** The first request finished: its answer. */
  | { state: 'done'; answer: StoredAnswer };

/** How long an Idempotency-Key and its answer are kept (Stripe's convention). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

export interface Retention {
  usageMs: number;
  /** After the settle. */
  ledgerMs: number;
}

export const DEFAULT_RETENTION: Retention = { usageMs: 90 * 86_400_000, ledgerMs: 7 * 86_400_000 };

export interface SweepResult {
  refunded: number;
  credits: number;
}

/** The stored state of one Idempotency-Key (both stores). */
export interface IdempotencyRecord {
  fingerprint: string;
  requestId: string;
  lockedUntil: number;
  answer?: StoredAnswer;
}

/** What a claim finds in an existing record: the shared rule of both stores. */
export function judgeIdempotencyRecord(rec: IdempotencyRecord, c: Pick<IdempotencyClaimRequest, 'fingerprint' | 'now'>): IdempotencyClaim | 'take_over' {
  // Released (the first answer was retryable) or abandoned (its edge died): the key is free again.
  if (!rec.answer && rec.lockedUntil <= c.now) return 'take_over';
  if (rec.fingerprint !== c.fingerprint) return { state: 'mismatch' };
  return rec.answer ? { state: 'done', answer: rec.answer } : { state: 'in_flight' };
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
  /**
   * Closes a reservation: `charge` keeps the credits, `refund` gives them back. Idempotent by requestId.
   * The ledger entry is written FIRST and is the commit: once it says `charge`, the call succeeds even
   * if tidying the key record fails (the sweeper finishes it without a refund); when the ledger cannot be
   * written the call throws and nothing is charged. A `refund` may revoke a `charge` entry whose
   * reservation is still open (a charge whose commit was reported failed: the client gets no 200).
   */
  settleCredits(s: { keyId: string; requestId: string; outcome: SettleOutcome }): Promise<SettleResult>;
  /**
   * Closes every reservation whose expiresAt <= now: refunded unless the ledger already says `charge`.
   * Safe to run from several instances at once.
   */
  sweepExpiredReservations(now: number): Promise<SweepResult>;

  /** Atomically claims an Idempotency-Key, or says why not (see IdempotencyClaim). */
  claimIdempotencyKey(c: IdempotencyClaimRequest): Promise<IdempotencyClaim>;
  /** Stores the claim's answer for replays, or (null) releases the key so a retry runs again. Only the claim's owner can. */
  finishIdempotencyKey(f: { scope: string; key: string; requestId: string; answer: StoredAnswer | null }): Promise<void>;

  /**
   * Bucketed sliding window (see slideWindow): counts this hit if the hits of every bucket that
   * overlaps the last `windowMs`, plus this one, stay within `limit`. A rejected hit changes nothing.
   * With `want` > 1 (a lease, rate-limit/local-windows.ts): counts as many hits as fit, up to `want`.
   */
  hitWindow(subject: string, limit: number, now: number, windowMs: number, want?: number): Promise<WindowHit>;

  /**
   * Writes a batch of entries with one write per key (usage-log.ts gathers them). One entry per
   * requestId and timestamp: the same entry recorded again stays one.
   */
  recordUsage(entries: readonly UsageEntry[]): Promise<void>;
  /** Newest first. */
  listUsage(keyId: string, limit: number): Promise<UsageEntry[]>;
}

/** Bucket length of every rate-limit window: 12 buckets per minute. */
export const BUCKET_MS = 5_000;

/**
 * The sliding-window decision shared by both implementations (pure, so it is tested once).
 *
 * Hits are counted per bucket of `bucketMs` (aligned to multiples of it). A bucket counts, whole,
 * while any part of it lies inside the last `windowMs` (its start > now - windowMs - bucketMs). Every
 * hit of the true sliding window is therefore counted, so admitting only when count + 1 <= limit
 * never lets more than `limit` through in any span of `windowMs`. The price: a hit is counted up to
 * one bucket longer than it strictly has to be (a greedy client gets `limit` per 60-65 s).
 *
 * A `now` behind a stored bucket (another instance's clock slightly ahead) still counts that bucket:
 * counts never run backwards.
 */
export function slideWindow(
  state: BucketWindow | null,
  limit: number,
  now: number,
  windowMs: number,
  bucketMs = BUCKET_MS,
  want = 1,
): { state: BucketWindow; hit: WindowHit } {
  const live = liveBuckets(state, now, windowMs, bucketMs);
  const counted = live.reduce((sum, b) => sum + b.n, 0);
  // As many of the wanted hits as fit (one, for a single hit); none is a rejection.
  const granted = Math.max(0, Math.min(Math.floor(want), limit - counted));
  const allowed = granted > 0;
  const next = allowed ? addHits(live, Math.floor(now / bucketMs) * bucketMs, granted) : live;
  const count = counted + granted;
  const newest = next.reduce((m, b) => Math.max(m, b.s), -Infinity);
  return {
    // A rejected hit writes nothing: the stored state stays as it was.
    state: allowed ? { buckets: next } : (state ?? { buckets: [] }),
    hit: {
      allowed,
      granted,
      limit,
      count,
      remaining: Math.max(0, limit - count),
      resetMs: next.length === 0 ? 0 : Math.max(0, newest + bucketMs + windowMs - now),
      retryAfterMs: allowed ? 0 : Math.max(1, admitsAt(next, limit, windowMs, bucketMs) - now),
    },
  };
}

/** The buckets still overlapping the window ending at `now`, oldest first. */
export function liveBuckets(state: BucketWindow | null, now: number, windowMs: number, bucketMs: number): WindowBucket[] {
  const buckets = Array.isArray(state?.buckets) ? state.buckets : [];
  return buckets.filter((b) => b.s + bucketMs + windowMs > now && b.n > 0).sort((a, b) => a.s - b.s);
}

function addHits(buckets: WindowBucket[], s: number, n: number): WindowBucket[] {
  return buckets.some((b) => b.s === s) ? buckets.map((b) => (b.s === s ? { s, n: b.n + n } : b)) : [...buckets, { s, n }].sort((a, b) => a.s - b.s);
}

/**
 * The earliest epoch ms at which one more hit is admitted if nothing else is admitted before: the
 * moment enough of the oldest buckets have left the window (bucket s leaves at s + bucketMs + windowMs).
 */
function admitsAt(buckets: WindowBucket[], limit: number, windowMs: number, bucketMs: number): number {
  let counted = buckets.reduce((sum, b) => sum + b.n, 0);
  for (const b of buckets) {
    counted -= b.n;
    if (counted + 1 <= limit) return b.s + bucketMs + windowMs;
  }
  // limit < 1 never admits: ask again once everything has left.
  const newest = buckets.at(-1)?.s ?? 0;
  return newest + bucketMs + windowMs;
}
