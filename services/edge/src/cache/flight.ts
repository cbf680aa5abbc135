/**
 * One render for identical requests in flight, across edge instances. The lock is a KV entry
 * (`<STORE_NAME>_flight`, key = the cache key) taken with create(), which succeeds for exactly one
 * caller. The bucket's max_age (LEASE_TTL_MS) frees the lock of a leader that died; a live leader
 * rewrites its lock every third of that, so long work keeps it. The leader runs the work and
 * publishes the outcome on `<STORE_NAME>.flight.<key>`;
 * followers subscribe BEFORE trying the lock (so the outcome cannot pass them by), wait for it,
 * and check every LEASE_POLL_MS that the lock still exists: when it is gone without an outcome
 * (leader died, or finished before they listened) they read the cache and, failing that, try again.
 * A failure is shared as a failure (the wire error); an answer too large for one NATS message is
 * announced as `too_large`, and the followers then do their own work.
 * Without JetStream (create() fails for another reason) every request simply does its own work.
 */
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { DeadlineExceededError, fromWireError, toServiceError, WireErrorSchema } from '@enrich/shared/errors';
import { z } from 'zod';

const LEASE_POLL_MS = 250;
/** How long the lock of a leader that stopped renewing it (died) holds its followers back. */
export const LEASE_TTL_MS = 10_000;
const MESSAGE_MARGIN = 4_096;

const OutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ok'), storedAt: z.number(), data: z.unknown() }),
  z.object({ kind: z.literal('failed'), error: WireErrorSchema }),
  z.object({ kind: z.literal('too_large') }),
]);
type Outcome = z.infer<typeof OutcomeSchema>;

export interface Produced {
  storedAt: number;
  data: unknown;
  /** The answer as JSON (what is cached and published). */
  json: string;
}

export interface FlightResult {
  storedAt: number;
  data: unknown;
  /** True when another request's work answered this one. */
  shared: boolean;
}

export interface FlightOptions {
  key: string;
  deadline: number;
  /** What a follower does when the leader is gone without an outcome: look in the cache. */
  lookup: () => Promise<{ storedAt: number; data: unknown } | null>;
  /** The work (render + analyze + validate + cache). */
  produce: () => Promise<Produced>;
}

export class SingleFlight {
  readonly #nc: NatsConnection;
  readonly #bucket: string;
  readonly #subject: string;
  readonly #leaseTtlMs: number;
  #leases!: KV;

  constructor(opts: { nc: NatsConnection; name: string; leaseTtlMs?: number }) {
    this.#nc = opts.nc;
    this.#bucket = `${opts.name}_flight`;
    this.#subject = `${opts.name}.flight`;
    this.#leaseTtlMs = opts.leaseTtlMs ?? LEASE_TTL_MS;
  }

  async init(): Promise<void> {
    this.#leases = await new Kvm(this.#nc).create(this.#bucket, { history: 1, ttl: this.#leaseTtlMs });
  }

  async run(o: FlightOptions): Promise<FlightResult> {
    for (;;) {
      if (Date.now() >= o.deadline) throw new DeadlineExceededError('The request budget ran out while waiting for an identical request to finish');
      const sub = this.#nc.subscribe(`${this.#subject}.${o.key}`, { max: 1 });
      let leader: boolean;
      try {
        await this.#leases.create(o.key, String(Date.now()));
        leader = true;
      } catch (err) {
        if (!/wrong last sequence|key exists/i.test((err as Error).message)) {
          sub.unsubscribe();
          return { ...(await o.produce()), shared: false }; // no coordination possible: do the work
        }
        leader = false;
      }
      if (leader) {
        sub.unsubscribe();
        return this.#lead(o);
      }
      const followed = await this.#follow(o, sub);
      if (followed === 'too_large') return { ...(await o.produce()), shared: false };
      if (followed !== 'retry') return followed;
    }
  }

  async #lead(o: FlightOptions): Promise<FlightResult> {
    const subject = `${this.#subject}.${o.key}`;
    let renewing: Promise<unknown> = Promise.resolve();
    const renew = setInterval(
      () => {
        renewing = this.#leases.put(o.key, String(Date.now())).catch(() => undefined);
      },
      Math.max(50, Math.floor(this.#leaseTtlMs / 3)),
    );
    try {
      const produced = await o.produce();
      const fits = Buffer.byteLength(produced.json) + MESSAGE_MARGIN <= this.#nc.info!.max_payload;
      this.#nc.publish(
        subject,
        fits ? `{"kind":"ok","storedAt":${produced.storedAt},"data":${produced.json}}` : JSON.stringify({ kind: 'too_large' } satisfies Outcome),
      );
      return { storedAt: produced.storedAt, data: produced.data, shared: false };
    } catch (err) {
      this.#nc.publish(subject, JSON.stringify({ kind: 'failed', error: toServiceError(err).toWire() } satisfies Outcome));
      throw err;
    } finally {
      clearInterval(renew);
      await renewing; // a renewal landing after the delete would hold the next requests back
      await this.#leases.delete(o.key).catch(() => undefined);
    }
  }

  /** Waits for the leader's outcome; 'retry' when the lock vanished without one and the cache has nothing. */
  async #follow(o: FlightOptions, sub: Subscription): Promise<FlightResult | 'retry' | 'too_large'> {
    const messages = sub[Symbol.asyncIterator]();
    const next = messages.next();
    try {
      while (Date.now() < o.deadline) {
        let timer: NodeJS.Timeout | undefined;
        const tick = new Promise<'tick'>((r) => {
          timer = setTimeout(() => r('tick'), Math.min(LEASE_POLL_MS, Math.max(1, o.deadline - Date.now())));
        });
        const got = await Promise.race([next, tick]);
        clearTimeout(timer);
        if (got !== 'tick') return got.done ? 'retry' : this.#outcome(got.value.string());
        const lease = await this.#leases.get(o.key);
        if (lease && lease.operation === 'PUT') continue;
        const cached = await o.lookup();
        return cached ? { ...cached, shared: true } : 'retry';
      }
      throw new DeadlineExceededError('The request budget ran out while waiting for an identical request to finish');
    } finally {
      sub.unsubscribe();
    }
  }

  #outcome(text: string): FlightResult | 'too_large' {
    const outcome = OutcomeSchema.parse(JSON.parse(text));
    if (outcome.kind === 'failed') throw fromWireError(outcome.error);
    if (outcome.kind === 'too_large') return 'too_large';
    return { storedAt: outcome.storedAt, data: outcome.data, shared: true };
  }
}
