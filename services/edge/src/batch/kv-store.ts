/**
 * Batches on JetStream KV. Buckets (prefix = STORE_NAME):
 *   <prefix>_batches          b.<batchId> -> BatchRecord
 *   <prefix>_batch_results    r.<batchId>.<index> -> BatchItemResult
 *   <prefix>_webhook_secrets  s.<keyId> -> the key's signing secret (no TTL)
 * The first two have the retention as bucket max_age (works on nats-server 2.9; no per-key TTL): an
 * entry disappears that long after its last write.
 */
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { BatchItemResult } from '@enrich/shared/contracts';
import { casUpdate } from '../store/cas.ts';
import type { BatchRecord } from './record.ts';
import { assertToken, newWebhookSecret, type BatchStore } from './store.ts';

function isConflict(err: unknown): boolean {
  return (err as { code?: unknown }).code === 10071 || /wrong last sequence|key exists/i.test((err as Error).message ?? '');
}

export class KvBatchStore implements BatchStore {
  readonly #nc: NatsConnection;
  readonly #prefix: string;
  readonly #retentionMs: number;
  #batches!: KV;
  #results!: KV;
  #secrets!: KV;

  constructor(opts: { nc: NatsConnection; name: string; retentionMs: number }) {
    this.#nc = opts.nc;
    this.#prefix = opts.name;
    this.#retentionMs = opts.retentionMs;
  }

  async init(): Promise<void> {
    const kvm = new Kvm(this.#nc);
    this.#batches = await kvm.create(`${this.#prefix}_batches`, { history: 1, ttl: this.#retentionMs });
    this.#results = await kvm.create(`${this.#prefix}_batch_results`, { history: 1, ttl: this.#retentionMs });
    this.#secrets = await kvm.create(`${this.#prefix}_webhook_secrets`, { history: 1 });
  }

  async create(rec: BatchRecord): Promise<void> {
    await this.#batches.create(`b.${assertToken(rec.id)}`, JSON.stringify(rec));
  }

  async get(id: string): Promise<BatchRecord | null> {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return null;
    const e = await this.#batches.get(`b.${id}`);
    return e && e.operation === 'PUT' ? e.json<BatchRecord>() : null;
  }

  async update(id: string, mutate: (cur: BatchRecord) => BatchRecord | null): Promise<{ record: BatchRecord | null; changed: boolean }> {
    return casUpdate<BatchRecord, { record: BatchRecord | null; changed: boolean }>(this.#batches, `b.${assertToken(id)}`, (cur) => {
      if (!cur) return { keep: true, result: { record: null, changed: false } };
      const next = mutate(cur);
      return next ? { write: next, result: { record: next, changed: true } } : { keep: true, result: { record: cur, changed: false } };
    });
  }

  async remove(id: string): Promise<void> {
    await this.#batches.delete(`b.${assertToken(id)}`);
  }

  async putResult(batchId: string, result: BatchItemResult, _expiresAt: number): Promise<BatchItemResult> {
    const key = `r.${assertToken(batchId)}.${result.index}`;
    try {
      await this.#results.create(key, JSON.stringify(result));
      return result;
    } catch (err) {
      if (!isConflict(err)) throw err;
      const e = await this.#results.get(key);
      if (e && e.operation === 'PUT') return e.json<BatchItemResult>();
      throw err;
    }
  }

  async getResults(batchId: string, indexes: number[]): Promise<Array<BatchItemResult | null>> {
    const id = assertToken(batchId);
    return Promise.all(
      indexes.map(async (i) => {
        const e = await this.#results.get(`r.${id}.${i}`);
        return e && e.operation === 'PUT' ? e.json<BatchItemResult>() : null;
      }),
    );
  }

  async webhookSecret(keyId: string, opts: { rotate?: boolean; create?: boolean } = {}): Promise<string | null> {
    const key = `s.${assertToken(keyId)}`;
    if (opts.rotate) {
      const secret = newWebhookSecret();
      await this.#secrets.put(key, secret);
      return secret;
    }
    const e = await this.#secrets.get(key);
    if (e && e.operation === 'PUT') return e.string();
    if (opts.create === false) return null;
    try {
      const secret = newWebhookSecret();
      await this.#secrets.create(key, secret);
      return secret;
    } catch (err) {
      if (!isConflict(err)) throw err;
      return (await this.#secrets.get(key))?.string() ?? null; // another instance created it first
    }
  }
}
