/**
 * The batch worker of one edge instance: takes items from every unfinished batch's consumer and runs
 * them (item.ts), sharing fairly and yielding to interactive traffic:
 * - at most BATCH_CONCURRENCY items at once on this instance (set it below the renderers' capacity,
 *   so single requests always find a free or short-queued page);
 * - at most BATCH_KEY_CONCURRENCY of them for one key; keys take turns (round robin), and a key's
 *   batches take turns too, so a 10,000-item batch cannot hold back another key's 10 items;
 * - while this edge serves interactive requests (and 500 ms after), at most BATCH_YIELD_CONCURRENCY
 *   items run (interactive.ts): running items finish, new ones wait;
 * - when a renderer answers BUSY (its queue is full) or none answers, the worker pauses (1 s,
 *   doubling to 15 s) and the item is retried later: single requests get the capacity first.
 * Batches are discovered from the stream's consumers (one per unfinished batch), every second.
 */
import type { Consumer, JsMsg } from '@nats-io/jetstream';
import type { Logger } from 'pino';
import type { BatchConfig } from './config.ts';
import type { InteractiveLoad } from './interactive.ts';
import { handleItem, type ItemContext } from './item.ts';
import { batchMetrics } from './metrics.ts';
import { listBatchConsumers, type BatchQueue } from './queue.ts';
import { TERMINAL } from './record.ts';
import type { BatchStore } from './store.ts';

interface Active {
  id: string;
  keyId: string;
  consumer: Consumer;
  /** Epoch ms before which this batch is not polled again (its last fetch found nothing). */
  idleUntil: number;
}

const DISCOVERY_MS = 1000;
const FETCH_EXPIRES_MS = 1000;
const MAX_PAUSE_MS = 15_000;

export class BatchWorker {
  readonly #ctx: ItemContext;
  readonly #queue: BatchQueue;
  readonly #store: BatchStore;
  readonly #config: BatchConfig;
  readonly #log: Logger;
  readonly #active = new Map<string, Active>();
  readonly #perKey = new Map<string, number>();
  #running = 0;
  #turn = 0;
  #pausedUntil = 0;
  #pauseMs = 0;
  #stopped = false;
  readonly #waiters = new Set<() => void>();
  #loops: Promise<void>[] = [];

  readonly #load: InteractiveLoad;

  constructor(opts: { ctx: ItemContext; queue: BatchQueue; store: BatchStore; config: BatchConfig; log: Logger; load: InteractiveLoad }) {
    this.#load = opts.load;
    this.#ctx = opts.ctx;
    this.#queue = opts.queue;
    this.#store = opts.store;
    this.#config = opts.config;
    this.#log = opts.log;
  }

  start(): void {
    this.#loops = [this.#discoverLoop(), this.#pump()];
  }

  /** Stops taking items and waits for the running ones (each ends within the request budget). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wakeAll();
    await Promise.all(this.#loops);
    while (this.#running > 0) await this.#sleep(50);
  }

  /** A batch ended (or its consumer vanished): stop polling it. */
  forget(id: string): void {
    this.#active.delete(id);
  }

  async #discoverLoop(): Promise<void> {
    while (!this.#stopped) {
      await this.#discover().catch((err: unknown) => this.#log.warn({ err }, 'batch discovery failed'));
      await new Promise((r) => setTimeout(r, DISCOVERY_MS));
    }
  }

  async #discover(): Promise<void> {
    const ids = new Set(await listBatchConsumers(this.#queue));
    for (const id of this.#active.keys()) if (!ids.has(id)) this.#active.delete(id);
    for (const id of ids) {
      if (this.#active.has(id)) continue;
      const rec = await this.#store.get(id);
      if (!rec || TERMINAL.has(rec.status)) {
        // Ended, but the instance that ended it died before cleaning up: finish its work (idempotent).
        if (rec) await this.#ctx.onEnded(rec);
        continue;
      }
      const consumer = await this.#queue.js.consumers.get(this.#queue.stream, this.#queue.itemConsumer(id));
      this.#active.set(id, { id, keyId: rec.keyId, consumer, idleUntil: 0 });
      this.#wakeAll();
    }
  }

  /** The next batch to take an item from, by turns over keys then over a key's batches; null if none may run now. */
  #pick(now: number): Active | null {
    const cap = this.#load.busy(now) ? Math.min(this.#config.yieldConcurrency, this.#config.concurrency) : this.#config.concurrency;
    if (this.#running >= cap || now < this.#pausedUntil) return null;
    const byKey = new Map<string, Active[]>();
    for (const a of this.#active.values()) {
      if (a.idleUntil > now || (this.#perKey.get(a.keyId) ?? 0) >= this.#config.keyConcurrency) continue;
      byKey.set(a.keyId, [...(byKey.get(a.keyId) ?? []), a]);
    }
    const keys = [...byKey.keys()].sort();
    if (keys.length === 0) return null;
    const turn = this.#turn++;
    const batches = byKey.get(keys[turn % keys.length]!)!;
    return batches[Math.floor(turn / keys.length) % batches.length]!;
  }

  async #pump(): Promise<void> {
    while (!this.#stopped) {
      const next = this.#pick(Date.now());
      if (!next) {
        // Woken early when a slot frees or a batch appears; otherwise look again in 250 ms (or when a pause ends).
        const paused = this.#pausedUntil - Date.now();
        await this.#sleep(paused > 0 ? Math.min(paused, 250) : 250);
        continue;
      }
      this.#running += 1;
      this.#perKey.set(next.keyId, (this.#perKey.get(next.keyId) ?? 0) + 1);
      void this.#slot(next).finally(() => {
        this.#running -= 1;
        this.#perKey.set(next.keyId, (this.#perKey.get(next.keyId) ?? 1) - 1);
        this.#wakeAll();
      });
    }
  }

  async #slot(batch: Active): Promise<void> {
    let msg: JsMsg | null;
    try {
      msg = await batch.consumer.next({ expires: FETCH_EXPIRES_MS });
    } catch (err) {
      this.#log.debug({ err, batchId: batch.id }, 'batch consumer fetch failed; forgetting it until rediscovered');
      this.#active.delete(batch.id);
      return;
    }
    if (!msg) {
      batch.idleUntil = Date.now() + FETCH_EXPIRES_MS;
      return;
    }
    try {
      const verdict = await handleItem(this.#ctx, msg);
      if (verdict === 'busy') this.#pause();
      else if (verdict === 'done') this.#pauseMs = 0;
    } catch (err) {
      this.#log.error({ err, batchId: batch.id }, 'batch item failed; it will be redelivered');
      msg.nak(2000);
    }
  }

  #pause(): void {
    this.#pauseMs = Math.min(MAX_PAUSE_MS, this.#pauseMs === 0 ? 1000 : this.#pauseMs * 2);
    this.#pausedUntil = Date.now() + this.#pauseMs;
    batchMetrics().paused.add(1);
    this.#log.info({ pauseMs: this.#pauseMs }, 'renderers busy or absent: batch work paused');
  }

  #wakeAll(): void {
    for (const w of [...this.#waiters]) w();
  }

  /** Sleeps `ms`, or less when a slot frees, a batch appears or the worker stops. */
  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#waiters.add(done);
    });
  }
}
