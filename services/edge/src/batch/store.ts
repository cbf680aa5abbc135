/**
 * Where batches live: the record (status, counters, answered bitmap), each item's answer, and the
 * per-key webhook secret. JetStream KV by default (buckets with a TTL of the retention), MongoDB with
 * MONGODB_URI (TTL indexes). Both pass test/support/batch-store-conformance.ts.
 */
import { randomBytes } from 'node:crypto';
import type { BatchItemResult } from '@enrich/shared/contracts';
import type { BatchRecord } from './record.ts';

export interface BatchStore {
  /** Releases what the store holds open (a MongoDB client); absent when there is nothing to release. */
  close?(): Promise<void>;
  init(): Promise<void>;
  create(rec: BatchRecord): Promise<void>;
  get(id: string): Promise<BatchRecord | null>;
  /**
   * Atomic read-modify-write: `mutate` returns the next record, or null to leave it. Answers the
   * record as it is afterwards and whether this call changed it. Null record: no such batch.
   */
  update(id: string, mutate: (cur: BatchRecord) => BatchRecord | null): Promise<{ record: BatchRecord | null; changed: boolean }>;
  /** Removes a batch whose submission failed half-way (nothing else calls it; retention expires the rest). */
  remove(id: string): Promise<void>;
  /** Stores an item's answer unless one is stored already (first answer wins); answers the stored one. */
  putResult(batchId: string, result: BatchItemResult, expiresAt: number): Promise<BatchItemResult>;
  getResults(batchId: string, indexes: number[]): Promise<Array<BatchItemResult | null>>;
  /** The key's webhook signing secret, created on first use; `rotate` replaces it. */
  webhookSecret(keyId: string, opts?: { rotate?: boolean; create?: boolean }): Promise<string | null>;
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** KV keys and MongoDB ids: the batch id is ours (`bat_<hex>`), the key id is `key_<hex>`. */
export function assertToken(s: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(s)) throw new RangeError(`not a valid id: ${JSON.stringify(s.slice(0, 80))}`);
  return s;
}
