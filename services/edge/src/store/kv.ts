/**
 * The store on NATS JetStream KV: needs nothing beyond the NATS server the services already use.
 * Buckets (prefix = STORE_NAME):
 *   <prefix>_keys     key.<id> -> ApiKeyRecord (with its open reservations), hash.<sha256> -> id
 *   <prefix>_ledger   r.<requestId> -> how the reservation was settled (idempotency + audit)
 *   <prefix>_windows  s.<subject> -> bucketed sliding window {buckets: [{s, n}]}; the bucket's max_age
 *                     (two minutes) drops a subject once its counts no longer matter
 *   <prefix>_usage    u.<keyId>.<epochMs>.<requestId> -> UsageEntry
 *   <prefix>_idempotency  i.<keyId>.<sha256(Idempotency-Key)> -> IdempotencyRecord
 * Retention is each bucket's max_age (ledger: LEDGER_RETENTION_DAYS after the settle, which writes the
 * entry; usage: USAGE_RETENTION_DAYS; idempotency: 24 h; windows: 2 min). init() also applies it to
 * buckets created earlier with another (or no) max_age. Per-key TTLs (nats-server >= 2.11) are
 * deliberately not used: the bucket-level TTL is enough and works on 2.9 too.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { casUpdate } from './cas.ts';
import {
  BUCKET_MS,
  DEFAULT_RETENTION,
  IDEMPOTENCY_TTL_MS,
  judgeIdempotencyRecord,
  slideWindow,
  type BucketWindow,
  type IdempotencyClaim,
  type IdempotencyClaimRequest,
  type IdempotencyRecord,
  type Retention,
  type StoredAnswer,
  type ApiKeyRecord,
  type KeyLimitsUpdate,
  type NewApiKey,
  type ReserveResult,
  type SettleResult,
  type Store,
  type SweepResult,
  type UsageEntry,
  type WindowHit,
} from './port.ts';

/**
 * A window entry matters for windowMs + BUCKET_MS (65 s) after its last write; the bucket's max_age
 * drops it after two minutes. (Entries `w.<subject>` of the old two-counter format are never read;
 * they age out the same way.)
 */
const WINDOW_BUCKET_TTL_MS = 2 * 60_000;

type LedgerOutcome = 'charge' | 'refund' | 'expired';

interface LedgerRecord {
  keyId: string;
  amount: number;
  endpoint: string;
  outcome: LedgerOutcome;
  at: string;
}

interface QueuedHit {
  limit: number;
  now: number;
  windowMs: number;
  want: number;
  resolve(hit: WindowHit): void;
  reject(err: unknown): void;
}

/** KV keys allow [-/_=.a-zA-Z0-9]; anything else (an IPv6 colon) is hex-encoded. */
function kvToken(s: string): string {
  return /^[-_=a-zA-Z0-9]+$/.test(s) ? s : `x${Buffer.from(s).toString('hex')}`;
}

export class KvStore implements Store {
  readonly kind = 'kv' as const;
  readonly #nc: NatsConnection;
  readonly #prefix: string;
  #keys!: KV;
  #ledger!: KV;
  #windows!: KV;
  #usage!: KV;
  /** Hits waiting for the in-flight window update of their subject (see #drainWindowQueue). */
  readonly #windowQueues = new Map<string, QueuedHit[]>();

  readonly #retention: Retention;
  /** Only a store told its retention (the edge) changes existing buckets; the keys CLI leaves them. */
  readonly #enforceRetention: boolean;
  #idempotency!: KV;

  constructor(opts: { nc: NatsConnection; name: string; retention?: Retention }) {
    this.#nc = opts.nc;
    this.#prefix = opts.name;
    this.#retention = opts.retention ?? DEFAULT_RETENTION;
    this.#enforceRetention = opts.retention !== undefined;
  }

  async init(): Promise<void> {
    const kvm = new Kvm(this.#nc);
    const bucket = async (suffix: string, ttl?: number): Promise<KV> => {
      const name = `${this.#prefix}_${suffix}`;
      const kv = await kvm.create(name, { history: 1, ...(ttl ? { ttl } : {}) });
      if (ttl && (this.#enforceRetention || suffix === 'windows' || suffix === 'idempotency')) await ensureMaxAge(this.#nc, kv, name, ttl);
      return kv;
    };
    this.#keys = await bucket('keys');
    this.#ledger = await bucket('ledger', this.#retention.ledgerMs);
    this.#windows = await bucket('windows', WINDOW_BUCKET_TTL_MS);
    this.#usage = await bucket('usage', this.#retention.usageMs);
    this.#idempotency = await bucket('idempotency', IDEMPOTENCY_TTL_MS);
  }

  async ping(): Promise<void> {
    await this.#keys.status();
  }

  async close(): Promise<void> {
    // The NATS connection belongs to the caller; there is nothing of our own to close.
  }

  async createKey(key: NewApiKey): Promise<ApiKeyRecord> {
    const record: ApiKeyRecord = { ...key, credits_used: 0, revoked: false, created_at: new Date().toISOString(), pending: [] };
    // The hash index first: a hash collision (or a retried create) must not leave an orphan key.
    await this.#keys.create(`hash.${key.hash}`, key.id);
    await this.#keys.create(`key.${key.id}`, JSON.stringify(record));
    return record;
  }

  async getKey(id: string): Promise<ApiKeyRecord | null> {
    const e = await this.#keys.get(`key.${kvToken(id)}`);
    return e && e.operation === 'PUT' ? e.json<ApiKeyRecord>() : null;
  }

  async findKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    if (!/^[0-9a-f]{64}$/.test(hash)) return null;
    const e = await this.#keys.get(`hash.${hash}`);
    if (!e || e.operation !== 'PUT') return null;
    return this.getKey(e.string());
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    const names: string[] = [];
    for await (const k of await this.#keys.keys('key.*')) names.push(k);
    const records = await Promise.all(names.map((k) => this.getKey(k.slice('key.'.length))));
    return records.filter((r): r is ApiKeyRecord => r !== null).sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  async updateKeyLimits(id: string, update: KeyLimitsUpdate): Promise<ApiKeyRecord | null> {
    return casUpdate<ApiKeyRecord, ApiKeyRecord | null>(this.#keys, `key.${kvToken(id)}`, (cur) => {
      if (!cur) return { keep: true, result: null };
      const next = {
        ...cur,
        ...(update.credits_limit !== undefined ? { credits_limit: update.credits_limit } : {}),
        ...(update.rate_limit !== undefined ? { rate_limit: update.rate_limit } : {}),
      };
      return { write: next, result: next };
    });
  }

  async revokeKey(id: string): Promise<ApiKeyRecord | null> {
    return casUpdate<ApiKeyRecord, ApiKeyRecord | null>(this.#keys, `key.${kvToken(id)}`, (cur) => {
      if (!cur) return { keep: true, result: null };
      const next = { ...cur, revoked: true };
      return { write: next, result: next };
    });
  }

  async reserveCredits(r: { keyId: string; requestId: string; amount: number; endpoint: string; expiresAt: number }): Promise<ReserveResult> {
    const settled = await this.#ledger.get(`r.${kvToken(r.requestId)}`);
    return casUpdate<ApiKeyRecord, ReserveResult>(this.#keys, `key.${kvToken(r.keyId)}`, (cur) => {
      if (!cur) return { keep: true, result: { ok: false, reason: 'unknown_key', credits_used: 0, credits_limit: 0 } };
      const totals = { credits_used: cur.credits_used, credits_limit: cur.credits_limit };
      if (cur.revoked) return { keep: true, result: { ok: false, reason: 'revoked', ...totals } };
      // Idempotent: a request already reserved (or already settled) is not charged twice.
      if (cur.pending.some((p) => p.requestId === r.requestId) || (settled && settled.operation === 'PUT')) {
        return { keep: true, result: { ok: true, duplicate: true, ...totals } };
      }
      if (cur.credits_used + r.amount > cur.credits_limit) return { keep: true, result: { ok: false, reason: 'insufficient_credits', ...totals } };
      const next: ApiKeyRecord = {
        ...cur,
        credits_used: cur.credits_used + r.amount,
        pending: [...cur.pending, { requestId: r.requestId, amount: r.amount, endpoint: r.endpoint, expiresAt: r.expiresAt }],
      };
      return { write: next, result: { ok: true, duplicate: false, credits_used: next.credits_used, credits_limit: next.credits_limit } };
    });
  }

  async settleCredits(s: { keyId: string; requestId: string; outcome: 'charge' | 'refund' }): Promise<SettleResult> {
    const before = await this.getKey(s.keyId);
    const open = before?.pending.find((p) => p.requestId === s.requestId);
    if (!before || !open) return { applied: false, credits_used: before?.credits_used ?? 0, credits_limit: before?.credits_limit ?? 0 };
    // 1. The commit: the ledger entry, before the key record moves.
    const rec: LedgerRecord = { keyId: s.keyId, amount: open.amount, endpoint: open.endpoint, outcome: s.outcome, at: new Date().toISOString() };
    const outcome = await this.#commitLedger(s.requestId, rec, s.outcome === 'refund');
    if (outcome !== s.outcome) return { applied: false, credits_used: before.credits_used, credits_limit: before.credits_limit };
    // 2. The key record follows the ledger.
    try {
      const closed = await this.#closeReservation(s.keyId, s.requestId, outcome);
      // Closed meanwhile by a sweeper that read our ledger entry: a charge stands all the same.
      return closed ?? { applied: outcome === 'charge', credits_used: before.credits_used, credits_limit: before.credits_limit };
    } catch (err) {
      // Charged by the ledger: the sweeper tidies the reservation later, without a refund.
      if (outcome === 'charge') return { applied: true, credits_used: before.credits_used, credits_limit: before.credits_limit };
      throw err; // a refund the sweeper completes once the reservation expires
    }
  }

  /** Forgets the reservation and gives its credits back unless the ledger says charge; null when it is gone. */
  async #closeReservation(keyId: string, requestId: string, outcome: LedgerOutcome): Promise<SettleResult | null> {
    return casUpdate<ApiKeyRecord, SettleResult | null>(this.#keys, `key.${kvToken(keyId)}`, (cur) => {
      const open = cur?.pending.find((p) => p.requestId === requestId);
      if (!cur || !open) return { keep: true, result: null };
      const next: ApiKeyRecord = {
        ...cur,
        credits_used: outcome === 'charge' ? cur.credits_used : cur.credits_used - open.amount,
        pending: cur.pending.filter((p) => p.requestId !== requestId),
      };
      return { write: next, result: { applied: true, credits_used: next.credits_used, credits_limit: next.credits_limit } };
    });
  }

  async sweepExpiredReservations(now: number): Promise<SweepResult> {
    const total: SweepResult = { refunded: 0, credits: 0 };
    for (const key of await this.listKeys()) {
      for (const p of key.pending.filter((x) => x.expiresAt <= now)) {
        // A reservation the ledger already closed as `charge` (its key update failed) is only tidied.
        const outcome = await this.#commitLedger(
          p.requestId,
          { keyId: key.id, amount: p.amount, endpoint: p.endpoint, outcome: 'expired', at: new Date(now).toISOString() },
          false,
        );
        const closed = await this.#closeReservation(key.id, p.requestId, outcome);
        if (closed && outcome !== 'charge') {
          total.refunded += 1;
          total.credits += p.amount;
        }
      }
    }
    return total;
  }

  /**
   * Writes the ledger entry unless one exists; returns the outcome that stands. With `revokeCharge`
   * (a refund), an existing `charge` is replaced by this refund, revision-checked.
   */
  async #commitLedger(requestId: string, rec: LedgerRecord, revokeCharge: boolean): Promise<LedgerOutcome> {
    return casUpdate<LedgerRecord, LedgerOutcome>(this.#ledger, `r.${kvToken(requestId)}`, (cur) => {
      if (!cur) return { write: rec, result: rec.outcome };
      if (revokeCharge && cur.outcome === 'charge') return { write: rec, result: rec.outcome };
      return { keep: true, result: cur.outcome };
    });
  }

  async hitWindow(subject: string, limit: number, now: number, windowMs: number, want = 1): Promise<WindowHit> {
    if (windowMs + BUCKET_MS > WINDOW_BUCKET_TTL_MS)
      throw new RangeError(`windows longer than ${WINDOW_BUCKET_TTL_MS - BUCKET_MS} ms outlive the bucket's max_age`);
    const key = `s.${kvToken(subject)}`;
    return new Promise<WindowHit>((resolve, reject) => {
      const queued = this.#windowQueues.get(key);
      if (queued) return void queued.push({ limit, now, windowMs, want, resolve, reject });
      const queue: QueuedHit[] = [{ limit, now, windowMs, want, resolve, reject }];
      this.#windowQueues.set(key, queue);
      void this.#drainWindowQueue(key, queue);
    });
  }

  /**
   * One compare-and-set per batch: hits on the same subject that arrive while an update is in flight
   * are decided together, one after another on the fresh counter, in the next update. Every decision
   * still rests on a revision-checked read, so the limit stays exact across instances, and a hot
   * subject costs one store round trip per batch instead of a retry storm among its own requests.
   */
  async #drainWindowQueue(key: string, queue: QueuedHit[]): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0).sort((a, b) => a.now - b.now);
      try {
        const hits = await casUpdate<BucketWindow, WindowHit[]>(this.#windows, key, (cur) => {
          let state: BucketWindow | null = cur;
          const decided = batch.map((h) => {
            const r = slideWindow(state, h.limit, h.now, h.windowMs, BUCKET_MS, h.want);
            state = r.state;
            return r.hit;
          });
          // Rejected hits change nothing, so a batch of them costs no write (and no contention).
          return decided.some((h) => h.allowed) && state ? { write: state, result: decided } : { keep: true, result: decided };
        });
        batch.forEach((h, i) => h.resolve(hits[i]!));
      } catch (err) {
        for (const h of batch) h.reject(err);
      }
    }
    this.#windowQueues.delete(key);
  }

  async claimIdempotencyKey(c: IdempotencyClaimRequest): Promise<IdempotencyClaim> {
    const fresh: IdempotencyRecord = { fingerprint: c.fingerprint, requestId: c.requestId, lockedUntil: c.now + c.lockMs };
    return casUpdate<IdempotencyRecord, IdempotencyClaim>(this.#idempotency, idempotencyKvKey(c.scope, c.key), (cur) => {
      const judged = cur ? judgeIdempotencyRecord(cur, c) : 'take_over';
      return judged === 'take_over' ? { write: fresh, result: { state: 'claimed' } } : { keep: true, result: judged };
    });
  }

  async finishIdempotencyKey(f: { scope: string; key: string; requestId: string; answer: StoredAnswer | null }): Promise<void> {
    await casUpdate<IdempotencyRecord, null>(this.#idempotency, idempotencyKvKey(f.scope, f.key), (cur) => {
      if (!cur || cur.requestId !== f.requestId || cur.answer) return { keep: true, result: null };
      return { write: f.answer ? { ...cur, answer: f.answer } : { ...cur, lockedUntil: 0 }, result: null };
    });
  }

  /**
   * One KV entry per key of the batch, named after its newest entry's time: `u.<key>.<ms>.<requestId>`
   * holding the entry itself when it is alone (a batch item's entry, so its redelivery overwrites the
   * same KV entry), else `u.<key>.<ms>.b<random>` holding the array.
   */
  async recordUsage(entries: readonly UsageEntry[]): Promise<void> {
    const byKey = new Map<string, UsageEntry[]>();
    for (const e of entries) {
      const list = byKey.get(e.keyId);
      if (list) list.push(e);
      else byKey.set(e.keyId, [e]);
    }
    await Promise.all(
      [...byKey].map(([keyId, list]) => {
        const newest = String(Math.max(...list.map((e) => Date.parse(e.timestamp)))).padStart(15, '0');
        const only = list.length === 1 ? list[0]! : undefined;
        const name = `u.${kvToken(keyId)}.${newest}.${only ? kvToken(only.requestId) : `b${randomBytes(8).toString('hex')}`}`;
        return this.#usage.put(name, JSON.stringify(only ?? list));
      }),
    );
  }

  async listUsage(keyId: string, limit: number): Promise<UsageEntry[]> {
    const names: string[] = [];
    for await (const k of await this.#usage.keys(`u.${kvToken(keyId)}.>`)) names.push(k);
    names.sort().reverse();
    // Newest KV entry first; an entry's name carries the time of its newest usage entry, so once
    // `limit` entries are held, a KV entry named before the limit-th newest of them holds none newer.
    const held = new Map<string, UsageEntry>();
    for (let i = 0; i < names.length; i += USAGE_READ_CHUNK) {
      if (held.size >= limit) {
        const cutoff = newestFirst([...held.values()])[limit - 1]!.timestamp;
        if (Number(names[i]!.split('.')[2]) < Date.parse(cutoff)) break;
      }
      const got = await Promise.all(names.slice(i, i + USAGE_READ_CHUNK).map((k) => this.#usage.get(k)));
      for (const e of got) {
        if (!e || e.operation !== 'PUT') continue;
        const value = e.json<UsageEntry | UsageEntry[]>();
        for (const u of Array.isArray(value) ? value : [value]) held.set(`${u.requestId} ${u.timestamp}`, u);
      }
    }
    return newestFirst([...held.values()]).slice(0, limit);
  }
}

/** KV entries read at once while listing usage. */
const USAGE_READ_CHUNK = 32;

function newestFirst(entries: UsageEntry[]): UsageEntry[] {
  return entries.sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp) || (a.requestId < b.requestId ? 1 : -1));
}

function idempotencyKvKey(scope: string, key: string): string {
  return `i.${kvToken(scope)}.${createHash('sha256').update(key).digest('hex')}`;
}

/**
 * KV keeps an existing bucket's configuration when it is "created" again, so a bucket made by an older
 * version (without a max_age, or another one) gets this one through a JetStream stream update.
 */
async function ensureMaxAge(nc: NatsConnection, kv: KV, bucket: string, ttlMs: number): Promise<void> {
  if ((await kv.status()).ttl === ttlMs) return;
  const api = async (op: string, body: string): Promise<{ config?: Record<string, unknown>; error?: { description?: string } }> =>
    JSON.parse((await nc.request(`$JS.API.STREAM.${op}.KV_${bucket}`, body, { timeout: 5000 })).string()) as {
      config?: Record<string, unknown>;
      error?: { description?: string };
    };
  const info = await api('INFO', '');
  if (!info.config) throw new Error(`KV bucket ${bucket}: ${info.error?.description ?? 'no stream info'}`);
  const updated = await api('UPDATE', JSON.stringify({ ...info.config, max_age: ttlMs * 1_000_000 }));
  if (updated.error) throw new Error(`KV bucket ${bucket}: could not set its retention: ${updated.error.description ?? 'unknown error'}`);
}
