/**
 * Bounded concurrency with a bounded queue: at most `concurrency` jobs run, at most `queue` wait,
 * and anything beyond is refused at once (BUSY) rather than piling up until every caller times out.
 */
import { BusyError, DeadlineExceededError } from '@enrich/shared/errors';

export interface Limiter {
  /** Waits for a slot; the returned function frees it (call it exactly once, in `finally`). */
  acquire(signal?: AbortSignal): Promise<() => void>;
  active(): number;
  queued(): number;
}

export function createLimiter(opts: { concurrency: number; queue: number }): Limiter {
  let running = 0;
  const waiting: Array<{ grant: () => void; reject: (err: Error) => void }> = [];

  const release = (): void => {
    const next = waiting.shift();
    if (next) next.grant();
    else running--;
  };
  const slot = (): (() => void) => {
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      release();
    };
  };

  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(new DeadlineExceededError('render: no budget left before the page could start'));
      if (running < opts.concurrency) {
        running++;
        return Promise.resolve(slot());
      }
      if (waiting.length >= opts.queue) {
        return Promise.reject(
          new BusyError(`renderer busy: ${running} pages rendering and ${waiting.length} waiting (limits ${opts.concurrency} + ${opts.queue}); retry shortly`),
        );
      }
      return new Promise((resolve, reject) => {
        const entry = {
          grant: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve(slot());
          },
          reject,
        };
        const onAbort = (): void => {
          const i = waiting.indexOf(entry);
          if (i >= 0) waiting.splice(i, 1);
          reject(new DeadlineExceededError('render: the budget ran out while waiting for a free page'));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting.push(entry);
      });
    },
    active: () => running,
    queued: () => waiting.length,
  };
}
