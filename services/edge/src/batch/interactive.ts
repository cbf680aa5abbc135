/**
 * How busy this edge is with interactive (single, paid) requests, so the batch worker can step back:
 * while any is in flight, or within QUIET_MS of the last one ending (a client's next request is
 * usually on its way), the worker starts items only up to BATCH_YIELD_CONCURRENCY. Per instance: an
 * edge sees only its own requests; the renderers' BUSY answers are the signal across instances.
 */
import type { FastifyInstance } from 'fastify';

const QUIET_MS = 500;

export class InteractiveLoad {
  inFlight = 0;
  #lastEndedAt = 0;

  enter(): void {
    this.inFlight += 1;
  }

  leave(now = Date.now()): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.#lastEndedAt = now;
  }

  busy(now = Date.now()): boolean {
    return this.inFlight > 0 || now - this.#lastEndedAt < QUIET_MS;
  }
}

/** Counts requests to `paths` (the paid GET endpoints) from arrival to response (or abort). */
export function trackInteractive(app: FastifyInstance, load: InteractiveLoad, paths: readonly string[]): void {
  const tracked = new Set(paths);
  const counted = new WeakSet<object>();
  app.addHook('onRequest', async (request) => {
    if (!tracked.has(request.routeOptions.url ?? '')) return;
    counted.add(request);
    load.enter();
  });
  const done = async (request: object): Promise<void> => {
    if (!counted.delete(request)) return;
    load.leave();
  };
  app.addHook('onResponse', done);
  app.addHook('onRequestAbort', done);
}
