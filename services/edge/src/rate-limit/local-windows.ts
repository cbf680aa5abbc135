/**
 * The rate-limit windows as this instance sees them: a per-instance cache in front of the shared
 * store's windows (store/port.ts `hitWindow`), so most checks cost no store round trip and a
 * refused client costs none at all.
 *
 * - **Leases.** Instead of one store update per hit, the instance takes several hits of the current
 *   5 s bucket at once (one compare-and-set that counts them in the store) and admits its requests
 *   from that lease locally. The lease is sized by the demand this instance saw for the subject
 *   (the hits of the last bucket), at most `maxLeaseShare` of the limit, and at least one hit;
 *   under 1/`maxLeaseShare` (20) of the limit, every hit is its own update, as before.
 * - **Refusals.** When the store refuses, the subject is refused locally until the moment the store
 *   said a hit would be admitted again (`retryAfterMs`): counts only grow until buckets leave the
 *   window, so nothing can admit earlier. No store call while refused.
 *
 * Exact across instances in the direction that matters: every admitted hit was counted in the store
 * before it was admitted, so the instances together never admit more than the limit in any window
 * (the store's bucket rule). Leased hits are counted in the bucket the lease was taken in and are only
 * used in that bucket; what an instance leaves unused when the bucket ends stays counted (it never
 * happened), so a client may be refused up to `maxLeaseShare` of its limit early per instance for as
 * long as that bucket counts (60-65 s). A hot subject pays one store update per lease instead of one
 * per request.
 */
import { BUCKET_MS, type Store, type WindowHit } from '../store/port.ts';

export interface WindowCounter {
  hit(subject: string, limit: number, now: number, windowMs: number): Promise<WindowHit>;
}

interface Lease {
  limit: number;
  windowMs: number;
  /** Start of the bucket the lease was counted in; it is used in that bucket only. */
  bucket: number;
  /** The latest time a hit was stamped with: the subject's clock, which never goes back. */
  latest: number;
  /** Leased hits not yet admitted. */
  left: number;
  /** The store's answer when the lease was taken (remaining after it, reset). */
  last: WindowHit;
  /** Admitted here until this epoch ms: refused (without asking the store) until then. */
  refusedUntil: number;
  /** Hits seen here in `bucket`, and in the bucket before it: the demand that sizes the next lease. */
  seen: number;
  seenBefore: number;
  /** A lease request in flight: hits wait for it instead of sending their own. */
  pending: Promise<void> | null;
}

export interface LocalWindowsOptions {
  /** Largest lease, as a share of the limit (default 1/20); 0 turns leasing off (one update per hit). */
  maxLeaseShare?: number;
  /** Subjects kept (default 50 000); the oldest idle ones are dropped beyond it. */
  maxSubjects?: number;
}

export class LocalWindows implements WindowCounter {
  readonly #store: Store;
  readonly #share: number;
  readonly #maxSubjects: number;
  readonly #subjects = new Map<string, Lease>();
  /** Store updates made (leases and refusals learnt): for tests and metrics. */
  storeCalls = 0;

  constructor(store: Store, opts: LocalWindowsOptions = {}) {
    this.#store = store;
    this.#share = opts.maxLeaseShare ?? 1 / 20;
    this.#maxSubjects = opts.maxSubjects ?? 50_000;
  }

  async hit(subject: string, limit: number, now: number, windowMs: number): Promise<WindowHit> {
    for (;;) {
      const lease = this.#leaseOf(subject, limit, windowMs, now);
      // The subject's clock: a hit stamped before one already seen (it waited on a lease while the
      // bucket turned) counts as at that later time, so the lease never goes back to an older bucket.
      const at = lease.latest;
      const local = this.#serveLocally(lease, at);
      if (local) return local;
      if (lease.pending) {
        await lease.pending;
        continue;
      }
      return this.#renew(subject, lease, at);
    }
  }

  #leaseOf(subject: string, limit: number, windowMs: number, now: number): Lease {
    let lease = this.#subjects.get(subject);
    if (!lease || lease.limit !== limit || lease.windowMs !== windowMs) {
      // A new subject, or its limit changed (a key's rate_limit edited): start from the store's view.
      lease = { limit, windowMs, bucket: bucketOf(now), latest: now, left: 0, last: emptyHit(limit), refusedUntil: 0, seen: 0, seenBefore: 0, pending: null };
      this.#remember(subject, lease);
      return lease;
    }
    lease.latest = Math.max(lease.latest, now);
    const bucket = bucketOf(lease.latest);
    if (lease.bucket !== bucket) {
      // A new bucket: what was leased in the old one is not used any more (it stays counted there).
      lease.seenBefore = lease.bucket === bucket - BUCKET_MS ? lease.seen : 0;
      lease.seen = 0;
      lease.left = 0;
      lease.bucket = bucket;
    }
    return lease;
  }

  /** Refused while the store's refusal stands; admitted from the lease while it lasts. */
  #serveLocally(lease: Lease, now: number): WindowHit | null {
    if (lease.refusedUntil > now) return { ...lease.last, allowed: false, granted: 0, retryAfterMs: lease.refusedUntil - now };
    if (lease.left <= 0 || lease.pending) return null;
    lease.left -= 1;
    lease.seen += 1;
    return this.#admitted(lease, now);
  }

  async #renew(subject: string, lease: Lease, now: number): Promise<WindowHit> {
    const want = this.#leaseSize(lease);
    let hit: WindowHit | undefined;
    let failure: unknown;
    lease.pending = (async () => {
      try {
        this.storeCalls += 1;
        hit = await this.#store.hitWindow(subject, lease.limit, now, lease.windowMs, want);
      } catch (err) {
        failure = err;
      }
    })();
    await lease.pending;
    lease.pending = null;
    if (!hit) throw failure;
    lease.last = hit;
    if (!hit.allowed) {
      lease.refusedUntil = now + hit.retryAfterMs;
      return hit;
    }
    lease.refusedUntil = 0;
    // The bucket may have turned while the lease was in flight: it was counted in `now`'s bucket.
    if (lease.bucket === bucketOf(now)) lease.left = hit.granted - 1;
    lease.seen += 1;
    return this.#admitted(lease, now);
  }

  /** The demand of the last bucket (or of this one so far, if larger), within the share of the limit. */
  #leaseSize(lease: Lease): number {
    const cap = Math.floor(lease.limit * this.#share);
    if (cap <= 1) return 1;
    return Math.max(1, Math.min(cap, Math.max(lease.seenBefore, lease.seen)));
  }

  /** This instance's view: what the store had left after the lease, plus the lease's own unused hits. */
  #admitted(lease: Lease, now: number): WindowHit {
    const remaining = Math.max(0, lease.last.remaining + lease.left);
    return {
      allowed: true,
      granted: 1,
      limit: lease.limit,
      count: lease.limit - remaining,
      remaining,
      resetMs: Math.max(lease.last.resetMs, bucketOf(now) + BUCKET_MS + lease.windowMs - now),
      retryAfterMs: 0,
    };
  }

  /** Keeps at most maxSubjects: the oldest insertions that are idle go first (Map keeps insertion order). */
  #remember(subject: string, lease: Lease): void {
    this.#subjects.delete(subject);
    this.#subjects.set(subject, lease);
    if (this.#subjects.size <= this.#maxSubjects) return;
    for (const [k, v] of this.#subjects) {
      if (this.#subjects.size <= this.#maxSubjects) break;
      if (!v.pending) this.#subjects.delete(k);
    }
  }
}

function bucketOf(now: number): number {
  return Math.floor(now / BUCKET_MS) * BUCKET_MS;
}

function emptyHit(limit: number): WindowHit {
  return { allowed: true, granted: 0, limit, count: 0, remaining: limit, resetMs: 0, retryAfterMs: 0 };
}
