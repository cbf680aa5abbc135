/**
 * The production store on MongoDB (official driver). Every credit movement is one atomic
 * findOneAndUpdate on the key document: the `$expr` guard makes "credits_used + cost <= credits_limit"
 * part of the match, so concurrent requests from any number of edge instances can never overspend.
 * Rate-limit windows are sliding-window counters decided inside one pipeline update, so they are
 * exact across instances too.
 * Collections (database = STORE_NAME): api_keys, ledger (unique requestId; TTL on the settle time),
 * rate_windows (TTL), usage (TTL on the request time), idempotency (TTL 24 h).
 */
import { createHash } from 'node:crypto';
import { MongoClient, MongoServerError, type Collection, type Db, type Document, type IndexSpecification } from 'mongodb';
import {
  BUCKET_MS,
  DEFAULT_RETENTION,
  IDEMPOTENCY_TTL_MS,
  judgeIdempotencyRecord,
  slideWindow,
  type IdempotencyClaim,
  type IdempotencyClaimRequest,
  type IdempotencyRecord,
  type Retention,
  type StoredAnswer,
  type WindowBucket,
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

type KeyDoc = Omit<ApiKeyRecord, 'id'> & { _id: string };
type LedgerOutcome = 'charge' | 'refund' | 'expired';
interface LedgerDoc {
  requestId: string;
  keyId: string;
  amount: number;
  endpoint: string;
  outcome: LedgerOutcome;
  /** When it was settled; the TTL index deletes the entry LEDGER_RETENTION_DAYS later. */
  at: Date;
}
type IdempotencyDoc = IdempotencyRecord & { _id: string; createdAt: Date };
interface WindowDoc {
  _id: string;
  buckets?: WindowBucket[];
  /** When the counts stop mattering (newest bucket + bucket + window); the TTL index deletes the document. */
  expiresAt?: Date;
}
type UsageDoc = UsageEntry & { at: Date };

const DUPLICATE_KEY = 11000;
const INDEX_OPTIONS_CONFLICT = 85;

/**
 * A TTL index on `field`; when one exists with another expireAfterSeconds (the retention was changed),
 * collMod changes it in place.
 */
async function ensureTtlIndex<T extends Document>(db: Db, coll: Collection<T>, field: string, seconds: number, enforce: boolean): Promise<void> {
  const spec: IndexSpecification = { [field]: 1 };
  try {
    await coll.createIndex(spec, { expireAfterSeconds: seconds });
  } catch (err) {
    if (!(err instanceof MongoServerError && err.code === INDEX_OPTIONS_CONFLICT)) throw err;
    if (!enforce) return; // a store not told its retention (the keys CLI) keeps the edge's
    await db.command({ collMod: coll.collectionName, index: { keyPattern: spec, expireAfterSeconds: seconds } });
  }
}

function toRecord(doc: KeyDoc | null): ApiKeyRecord | null {
  if (!doc) return null;
  const { _id, ...rest } = doc;
  return { id: _id, ...rest };
}

export class MongoStore implements Store {
  readonly kind = 'mongo' as const;
  readonly #client: MongoClient;
  readonly #db: Db;
  readonly #keys: Collection<KeyDoc>;
  readonly #ledger: Collection<LedgerDoc>;
  readonly #windows: Collection<WindowDoc>;
  readonly #usage: Collection<UsageDoc>;
  readonly #idempotency: Collection<IdempotencyDoc>;
  readonly #retention: Retention;
  /** Only a store told its retention (the edge) changes existing TTL indexes; the keys CLI leaves them. */
  readonly #enforceRetention: boolean;

  constructor(opts: { uri: string; name: string; retention?: Retention }) {
    this.#retention = opts.retention ?? DEFAULT_RETENTION;
    this.#enforceRetention = opts.retention !== undefined;
    this.#client = new MongoClient(opts.uri, { serverSelectionTimeoutMS: 5000, appName: 'enrich-edge' });
    this.#db = this.#client.db(opts.name);
    this.#keys = this.#db.collection<KeyDoc>('api_keys');
    this.#ledger = this.#db.collection<LedgerDoc>('ledger');
    // `rate_windows`, not the old `windows` (two-counter documents, which its TTL index empties).
    this.#windows = this.#db.collection<WindowDoc>('rate_windows');
    this.#usage = this.#db.collection<UsageDoc>('usage');
    this.#idempotency = this.#db.collection<IdempotencyDoc>('idempotency');
  }

  async init(): Promise<void> {
    await this.#client.connect();
    await Promise.all([
      this.#keys.createIndex({ hash: 1 }, { unique: true }),
      this.#keys.createIndex({ 'pending.expiresAt': 1 }),
      this.#ledger.createIndex({ requestId: 1 }, { unique: true }),
      this.#windows.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 }),
      this.#usage.createIndex({ keyId: 1, at: -1 }),
      ensureTtlIndex(this.#db, this.#usage, 'at', Math.round(this.#retention.usageMs / 1000), this.#enforceRetention),
      ensureTtlIndex(this.#db, this.#ledger, 'at', Math.round(this.#retention.ledgerMs / 1000), this.#enforceRetention),
      ensureTtlIndex(this.#db, this.#idempotency, 'createdAt', Math.round(IDEMPOTENCY_TTL_MS / 1000), true),
    ]);
  }

  async ping(): Promise<void> {
    await this.#db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.#client.close();
  }

  async createKey(key: NewApiKey): Promise<ApiKeyRecord> {
    const { id, ...rest } = key;
    const doc: KeyDoc = { _id: id, ...rest, credits_used: 0, revoked: false, created_at: new Date().toISOString(), pending: [] };
    await this.#keys.insertOne(doc);
    return toRecord(doc) as ApiKeyRecord;
  }

  async getKey(id: string): Promise<ApiKeyRecord | null> {
    return toRecord(await this.#keys.findOne({ _id: id }));
  }

  async findKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    return toRecord(await this.#keys.findOne({ hash }));
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    const docs = await this.#keys.find({}).sort({ created_at: 1 }).toArray();
    return docs.map((d) => toRecord(d) as ApiKeyRecord);
  }

  async updateKeyLimits(id: string, update: KeyLimitsUpdate): Promise<ApiKeyRecord | null> {
    const $set: Partial<KeyDoc> = {};
    if (update.credits_limit !== undefined) $set.credits_limit = update.credits_limit;
    if (update.rate_limit !== undefined) $set.rate_limit = update.rate_limit;
    return toRecord(await this.#keys.findOneAndUpdate({ _id: id }, { $set }, { returnDocument: 'after' }));
  }

  async revokeKey(id: string): Promise<ApiKeyRecord | null> {
    return toRecord(await this.#keys.findOneAndUpdate({ _id: id }, { $set: { revoked: true } }, { returnDocument: 'after' }));
  }

  async reserveCredits(r: { keyId: string; requestId: string; amount: number; endpoint: string; expiresAt: number }): Promise<ReserveResult> {
    if (await this.#ledger.findOne({ requestId: r.requestId })) return this.#duplicate(r.keyId);
    const doc = await this.#keys.findOneAndUpdate(
      {
        _id: r.keyId,
        revoked: false,
        'pending.requestId': { $ne: r.requestId },
        $expr: { $lte: [{ $add: ['$credits_used', r.amount] }, '$credits_limit'] },
      },
      {
        $inc: { credits_used: r.amount },
        $push: { pending: { requestId: r.requestId, amount: r.amount, endpoint: r.endpoint, expiresAt: r.expiresAt } },
      },
      { returnDocument: 'after' },
    );
    if (doc) return { ok: true, duplicate: false, credits_used: doc.credits_used, credits_limit: doc.credits_limit };
    // Not matched: find out which guard failed, for the right answer.
    const cur = await this.#keys.findOne({ _id: r.keyId });
    if (!cur) return { ok: false, reason: 'unknown_key', credits_used: 0, credits_limit: 0 };
    const totals = { credits_used: cur.credits_used, credits_limit: cur.credits_limit };
    if (cur.revoked) return { ok: false, reason: 'revoked', ...totals };
    if (cur.pending.some((p) => p.requestId === r.requestId)) return { ok: true, duplicate: true, ...totals };
    return { ok: false, reason: 'insufficient_credits', ...totals };
  }

  async #duplicate(keyId: string): Promise<ReserveResult> {
    const cur = await this.#keys.findOne({ _id: keyId });
    return { ok: true, duplicate: true, credits_used: cur?.credits_used ?? 0, credits_limit: cur?.credits_limit ?? 0 };
  }

  async settleCredits(s: { keyId: string; requestId: string; outcome: 'charge' | 'refund' }): Promise<SettleResult> {
    const cur = await this.#keys.findOne(
      { _id: s.keyId, 'pending.requestId': s.requestId },
      { projection: { pending: { $elemMatch: { requestId: s.requestId } } } },
    );
    const open = cur?.pending?.[0];
    if (open) {
      // 1. The commit: the ledger entry, before the key document moves.
      const outcome = await this.#commitLedger(
        { requestId: s.requestId, keyId: s.keyId, amount: open.amount, endpoint: open.endpoint, outcome: s.outcome, at: new Date() },
        s.outcome === 'refund',
      );
      if (outcome === s.outcome) {
        try {
          const doc = await this.#closeReservation(s.keyId, s.requestId, open.amount, outcome);
          if (doc) return { applied: true, credits_used: doc.credits_used, credits_limit: doc.credits_limit };
          if (outcome === 'charge') {
            // Closed meanwhile by a sweeper that read our ledger entry: the charge stands all the same.
            const now = await this.#keys.findOne({ _id: s.keyId });
            return { applied: true, credits_used: now?.credits_used ?? 0, credits_limit: now?.credits_limit ?? 0 };
          }
        } catch (err) {
          // Charged by the ledger: the sweeper tidies the reservation later, without a refund.
          if (outcome !== 'charge') throw err;
          const now = await this.#keys.findOne({ _id: s.keyId }).catch(() => null);
          return { applied: true, credits_used: now?.credits_used ?? 0, credits_limit: now?.credits_limit ?? 0 };
        }
      }
    }
    const now = await this.#keys.findOne({ _id: s.keyId });
    return { applied: false, credits_used: now?.credits_used ?? 0, credits_limit: now?.credits_limit ?? 0 };
  }

  /** Forgets the reservation (matched, so at most once) and refunds unless the ledger says charge. */
  async #closeReservation(keyId: string, requestId: string, amount: number, outcome: LedgerOutcome): Promise<KeyDoc | null> {
    return this.#keys.findOneAndUpdate(
      { _id: keyId, 'pending.requestId': requestId },
      { $pull: { pending: { requestId } }, $inc: { credits_used: outcome === 'charge' ? 0 : -amount } },
      { returnDocument: 'after' },
    );
  }

  async sweepExpiredReservations(now: number): Promise<SweepResult> {
    const total: SweepResult = { refunded: 0, credits: 0 };
    const keys = await this.#keys.find({ 'pending.expiresAt': { $lte: now } }).toArray();
    for (const key of keys) {
      for (const p of key.pending.filter((x) => x.expiresAt <= now)) {
        const outcome = await this.#commitLedger(
          { requestId: p.requestId, keyId: key._id, amount: p.amount, endpoint: p.endpoint, outcome: 'expired', at: new Date(now) },
          false,
        );
        const doc = await this.#closeReservation(key._id, p.requestId, p.amount, outcome);
        if (!doc || outcome === 'charge') continue; // settled or swept by someone else meanwhile, or charged
        total.refunded += 1;
        total.credits += p.amount;
      }
    }
    return total;
  }

  /** Inserts the ledger entry unless one exists; the outcome that stands. A refund may replace a charge. */
  async #commitLedger(doc: LedgerDoc, revokeCharge: boolean): Promise<LedgerOutcome> {
    try {
      await this.#ledger.insertOne(doc);
      return doc.outcome;
    } catch (err) {
      if (!(err instanceof MongoServerError && err.code === DUPLICATE_KEY)) throw err;
    }
    if (revokeCharge) {
      const revoked = await this.#ledger.findOneAndUpdate({ requestId: doc.requestId, outcome: 'charge' }, { $set: { outcome: doc.outcome, at: doc.at } });
      if (revoked) return doc.outcome;
    }
    const existing = await this.#ledger.findOne({ requestId: doc.requestId });
    return existing?.outcome ?? doc.outcome;
  }

  async claimIdempotencyKey(c: IdempotencyClaimRequest): Promise<IdempotencyClaim> {
    const _id = idempotencyId(c.scope, c.key);
    const fresh = { fingerprint: c.fingerprint, requestId: c.requestId, lockedUntil: c.now + c.lockMs, createdAt: new Date(c.now) };
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await this.#idempotency.insertOne({ _id, ...fresh });
        return { state: 'claimed' };
      } catch (err) {
        if (!(err instanceof MongoServerError && err.code === DUPLICATE_KEY)) throw err;
      }
      const existing = await this.#idempotency.findOne({ _id });
      if (!existing) continue; // expired by the TTL index meanwhile: insert again
      const judged = judgeIdempotencyRecord(existing, c);
      if (judged !== 'take_over') return judged;
      // Released or abandoned: take it over, matched on the state we judged so only one claimant wins.
      const taken = await this.#idempotency.findOneAndUpdate(
        { _id, requestId: existing.requestId, lockedUntil: existing.lockedUntil, answer: { $exists: false } },
        { $set: fresh },
      );
      if (taken) return { state: 'claimed' };
    }
    throw new Error(`Idempotency-Key claim for ${c.scope} kept changing under us`);
  }

  async finishIdempotencyKey(f: { scope: string; key: string; requestId: string; answer: StoredAnswer | null }): Promise<void> {
    const filter = { _id: idempotencyId(f.scope, f.key), requestId: f.requestId, answer: { $exists: false } };
    await this.#idempotency.updateOne(filter, f.answer ? { $set: { answer: f.answer, createdAt: new Date() } } : { $set: { lockedUntil: 0 } });
  }

  async hitWindow(subject: string, limit: number, now: number, windowMs: number, want = 1): Promise<WindowHit> {
    const pipeline = bucketWindowPipeline(limit, now, windowMs, BUCKET_MS, Math.floor(want));
    for (let attempt = 0; ; attempt++) {
      try {
        const before = await this.#windows.findOneAndUpdate({ _id: subject }, pipeline, { upsert: true, returnDocument: 'before' });
        // Decide from the state we replaced: the same rule as the pipeline, in the same integer arithmetic.
        return slideWindow(before ? { buckets: before.buckets ?? [] } : null, limit, now, windowMs, BUCKET_MS, want).hit;
      } catch (err) {
        // Two first-ever hits racing to upsert the same _id: one loses with a duplicate key; retry.
        if (err instanceof MongoServerError && err.code === DUPLICATE_KEY && attempt < 5) continue;
        throw err;
      }
    }
  }

  async recordUsage(entries: readonly UsageEntry[]): Promise<void> {
    if (entries.length === 0) return;
    // One bulk write; the same entry again (a batch item's redelivery) is one entry.
    await this.#usage.bulkWrite(
      entries.map((entry) => ({
        updateOne: {
          filter: { requestId: entry.requestId, timestamp: entry.timestamp },
          update: { $setOnInsert: { ...entry, at: new Date(entry.timestamp) } },
          upsert: true,
        },
      })),
      { ordered: false },
    );
  }

  async listUsage(keyId: string, limit: number): Promise<UsageEntry[]> {
    const docs = await this.#usage
      .find({ keyId }, { projection: { _id: 0, at: 0 } })
      .sort({ at: -1 })
      .limit(limit)
      .toArray();
    return docs as unknown as UsageEntry[];
  }
}

function idempotencyId(scope: string, key: string): string {
  return `${scope}:${createHash('sha256').update(key).digest('hex')}`;
}

/**
 * slideWindow as one atomic pipeline update: keep the buckets still overlapping the window, decide
 * how many of the `want` hits fit, and count them in now's bucket. A rejected hit (none fits) leaves
 * every field as it was.
 */
function bucketWindowPipeline(limit: number, now: number, windowMs: number, bucketMs: number, want: number): object[] {
  const current = Math.floor(now / bucketMs) * bucketMs;
  const live = {
    $filter: {
      input: { $ifNull: ['$buckets', []] },
      as: 'b',
      cond: { $and: [{ $gt: [{ $add: ['$$b.s', bucketMs + windowMs] }, now] }, { $gt: ['$$b.n', 0] }] },
    },
  };
  const added = {
    $cond: [
      { $in: [current, '$_live.s'] },
      { $map: { input: '$_live', as: 'b', in: { $cond: [{ $eq: ['$$b.s', current] }, { s: '$$b.s', n: { $add: ['$$b.n', '$_g'] } }, '$$b'] } } },
      { $concatArrays: ['$_live', [{ s: current, n: '$_g' }]] },
    ],
  };
  return [
    { $set: { _live: live } },
    { $set: { _g: { $max: [0, { $min: [want, { $subtract: [limit, { $sum: '$_live.n' }] }] }] } } },
    { $set: { buckets: { $cond: [{ $gt: ['$_g', 0] }, added, { $ifNull: ['$buckets', []] }] } } },
    { $set: { expiresAt: { $toDate: { $add: [{ $max: [{ $max: '$buckets.s' }, current] }, bucketMs + windowMs] } } } },
    { $unset: ['_live', '_g'] },
  ];
}
