/**
 * The usage log's writer: entries of answered requests are gathered for `flushMs` (or until
 * USAGE_BATCH_MAX are waiting) and written with one `recordUsage` call, which the stores turn into one write per key
 * (store/port.ts). At 1000 refusals a second one put each cost the edge about 0.25 ms of CPU and the
 * NATS server 0.1 ms, which was most of a refusal's price (test/bench, 2026-11-26).
 *
 * The log is the customer's record of what was asked and answered, not the bill: credits are the
 * ledger's, written before the answer. An entry is therefore written after its answer, as before, and
 * up to `flushMs` later; entries still waiting when the edge stops are written then (flush() in the app's onClose). A write
 * that fails is logged and its entries are dropped, as a failed single write was.
 */
import type { Store, UsageEntry } from './store/port.ts';

/** Entries written by one call at most (a KV entry of 500 is about 100 KB, under NATS's 1 MB payload). */
export const USAGE_BATCH_MAX = 500;

export class UsageLog {
  readonly #store: Pick<Store, 'recordUsage'>;
  readonly #flushMs: number;
  readonly #onError: (err: unknown, entries: number) => void;
  #waiting: UsageEntry[] = [];
  #timer: NodeJS.Timeout | undefined;
  readonly #writes = new Set<Promise<void>>();

  constructor(store: Pick<Store, 'recordUsage'>, opts: { flushMs: number; onError: (err: unknown, entries: number) => void }) {
    this.#store = store;
    this.#flushMs = opts.flushMs;
    this.#onError = opts.onError;
  }

  add(entry: UsageEntry): void {
    this.#waiting.push(entry);
    if (this.#waiting.length >= USAGE_BATCH_MAX || this.#flushMs <= 0) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), this.#flushMs);
  }

  /** Starts writing what is waiting; the returned promise ends when every write started so far has. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    while (this.#waiting.length > 0) {
      const batch = this.#waiting.splice(0, USAGE_BATCH_MAX);
      const write: Promise<void> = this.#store
        .recordUsage(batch)
        .catch((err: unknown) => this.#onError(err, batch.length))
        .finally(() => this.#writes.delete(write));
      this.#writes.add(write);
    }
    return Promise.all(this.#writes).then(() => undefined);
  }
}
