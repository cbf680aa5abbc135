/**
 * Batches on MongoDB (database = STORE_NAME): `batches` (the record plus a revision for
 * compare-and-set, TTL index on expiresAt), `batch_results` (one document per answered item, unique
 * on _id = <batchId>.<index>, TTL index on expiresAt), `webhook_secrets` (_id = key id, no TTL).
 */
import { MongoClient, MongoServerError, type Collection } from 'mongodb';
import type { BatchItemResult } from '@enrich/shared/contracts';
import { UnavailableError } from '@enrich/shared/errors';
import type { BatchRecord } from './record.ts';
import { assertToken, newWebhookSecret, type BatchStore } from './store.ts';

type BatchDoc = Omit<BatchRecord, 'id' | 'expiresAt'> & { _id: string; rev: number; expiresAt: Date };
interface ResultDoc {
  _id: string;
  batchId: string;
  index: number;
  result: BatchItemResult;
  expiresAt: Date;
}
interface SecretDoc {
  _id: string;
  secret: string;
}

const DUPLICATE_KEY = 11000;
const MAX_ATTEMPTS = 200;

function toRecord(doc: BatchDoc): BatchRecord {
  const { _id, rev: _rev, expiresAt, ...rest } = doc;
  return { id: _id, ...rest, expiresAt: expiresAt.getTime() };
}

function toDoc(rec: BatchRecord, rev: number): BatchDoc {
  const { id, expiresAt, ...rest } = rec;
  return { _id: id, ...rest, rev, expiresAt: new Date(expiresAt) };
}

export class MongoBatchStore implements BatchStore {
  readonly #client: MongoClient;
  readonly #batches: Collection<BatchDoc>;
  readonly #results: Collection<ResultDoc>;
  readonly #secrets: Collection<SecretDoc>;

  constructor(opts: { uri: string; name: string }) {
    this.#client = new MongoClient(opts.uri, { serverSelectionTimeoutMS: 5000, appName: 'enrich-edge-batch' });
    const db = this.#client.db(opts.name);
    this.#batches = db.collection<BatchDoc>('batches');
    this.#results = db.collection<ResultDoc>('batch_results');
    this.#secrets = db.collection<SecretDoc>('webhook_secrets');
  }

  async init(): Promise<void> {
    await this.#client.connect();
    await Promise.all([
      this.#batches.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 }),
      this.#results.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 }),
      this.#results.createIndex({ batchId: 1, index: 1 }),
    ]);
  }

  async close(): Promise<void> {
    await this.#client.close();
  }

  async create(rec: BatchRecord): Promise<void> {
    await this.#batches.insertOne(toDoc({ ...rec, id: assertToken(rec.id) }, 0));
  }

  async get(id: string): Promise<BatchRecord | null> {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return null;
    const doc = await this.#batches.findOne({ _id: id });
    return doc ? toRecord(doc) : null;
  }

  async update(id: string, mutate: (cur: BatchRecord) => BatchRecord | null): Promise<{ record: BatchRecord | null; changed: boolean }> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const doc = await this.#batches.findOne({ _id: assertToken(id) });
      if (!doc) return { record: null, changed: false };
      const cur = toRecord(doc);
      const next = mutate(cur);
      if (!next) return { record: cur, changed: false };
      const r = await this.#batches.replaceOne({ _id: id, rev: doc.rev }, toDoc(next, doc.rev + 1));
      if (r.matchedCount === 1) return { record: next, changed: true };
      await new Promise((res) => setTimeout(res, Math.random() * Math.min(50, 1 + attempt * 2)));
    }
    throw new UnavailableError(`store contention: could not update batch ${id}`);
  }

  async remove(id: string): Promise<void> {
    await this.#batches.deleteOne({ _id: assertToken(id) });
  }

  async putResult(batchId: string, result: BatchItemResult, expiresAt: number): Promise<BatchItemResult> {
    const _id = `${assertToken(batchId)}.${result.index}`;
    try {
      await this.#results.insertOne({ _id, batchId, index: result.index, result, expiresAt: new Date(expiresAt) });
      return result;
    } catch (err) {
      if (!(err instanceof MongoServerError && err.code === DUPLICATE_KEY)) throw err;
      const doc = await this.#results.findOne({ _id });
      if (!doc) throw err;
      return doc.result;
    }
  }

  async getResults(batchId: string, indexes: number[]): Promise<Array<BatchItemResult | null>> {
    const ids = indexes.map((i) => `${assertToken(batchId)}.${i}`);
    const docs = await this.#results.find({ _id: { $in: ids } }).toArray();
    const byId = new Map(docs.map((d) => [d._id, d.result]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  async webhookSecret(keyId: string, opts: { rotate?: boolean; create?: boolean } = {}): Promise<string | null> {
    const _id = assertToken(keyId);
    if (opts.rotate) {
      const secret = newWebhookSecret();
      await this.#secrets.replaceOne({ _id }, { secret }, { upsert: true });
      return secret;
    }
    if (opts.create === false) return (await this.#secrets.findOne({ _id }))?.secret ?? null;
    // Insert-if-absent in one step: concurrent first uses agree on one secret.
    const doc = await this.#secrets.findOneAndUpdate({ _id }, { $setOnInsert: { secret: newWebhookSecret() } }, { upsert: true, returnDocument: 'after' });
    return doc?.secret ?? null;
  }
}
