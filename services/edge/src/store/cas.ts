/**
 * Revision-checked read-modify-write on a JetStream KV entry. KV has no server-side arithmetic, so
 * atomicity comes from optimistic concurrency: read (value, revision), compute, `update(rev)`; a
 * concurrent writer makes the update fail with "wrong last sequence" and we retry on the fresh value.
 * Works on nats-server 2.9 (no per-message TTL) and current servers alike.
 */
import type { KV } from '@nats-io/kv';
import { UnavailableError } from '@enrich/shared/errors';

const MAX_ATTEMPTS = 400;

/** What the mutator decides: write `next`, or leave the entry as it is and return `result`. */
export type CasDecision<T, R> = { write: T; result: R } | { keep: true; result: R };

function isRevisionConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  // 10071: StreamWrongLastSequence (update with a stale revision, or create of an existing key).
  return code === 10071 || /wrong last sequence|key exists/i.test((err as Error)?.message ?? '');
}

export async function casUpdate<T, R>(kv: KV, key: string, mutate: (current: T | null) => CasDecision<T, R>): Promise<R> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const entry = await kv.get(key);
    const live = entry && entry.operation === 'PUT' ? entry : null;
    const current = live ? live.json<T>() : null;
    const decision = mutate(current);
    if ('keep' in decision) return decision.result;
    const body = JSON.stringify(decision.write);
    try {
      if (live) await kv.update(key, body, live.revision);
      // A deleted key still has a revision (its tombstone): update on it keeps the check strict.
      else if (entry) await kv.update(key, body, entry.revision);
      else await kv.create(key, body);
      return decision.result;
    } catch (err) {
      if (!isRevisionConflict(err)) throw err;
      // Jittered, growing backoff: under a thundering herd one writer wins per round.
      const cap = Math.min(50, 1 + attempt * 2);
      await new Promise((r) => setTimeout(r, Math.random() * cap));
    }
  }
  throw new UnavailableError(`store contention: could not update ${key} after ${MAX_ATTEMPTS} attempts`);
}
