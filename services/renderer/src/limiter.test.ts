import { describe, expect, it } from 'vitest';
import { BusyError, DeadlineExceededError } from '@enrich/shared/errors';
import { createLimiter } from './limiter.ts';

describe('createLimiter', () => {
  it('runs up to the concurrency, queues up to the queue size, refuses beyond', async () => {
    const limiter = createLimiter({ concurrency: 2, queue: 1 });
    const a = await limiter.acquire();
    const b = await limiter.acquire();
    let cGranted = false;
    const c = limiter.acquire().then((free) => {
      cGranted = true;
      return free;
    });
    expect(limiter.active()).toBe(2);
    expect(limiter.queued()).toBe(1);
    await expect(limiter.acquire()).rejects.toBeInstanceOf(BusyError);
    await Promise.resolve();
    expect(cGranted).toBe(false);
    a();
    a(); // a second call must not free another slot
    const freeC = await c;
    expect(limiter.active()).toBe(2);
    expect(limiter.queued()).toBe(0);
    b();
    freeC();
    expect(limiter.active()).toBe(0);
  });

  it('drops a waiter whose deadline passes and keeps the queue order for the rest', async () => {
    const limiter = createLimiter({ concurrency: 1, queue: 2 });
    const first = await limiter.acquire();
    const abort = new AbortController();
    const doomed = limiter.acquire(abort.signal);
    const order: string[] = [];
    const survivor = limiter.acquire().then((free) => {
      order.push('survivor');
      return free;
    });
    abort.abort();
    await expect(doomed).rejects.toBeInstanceOf(DeadlineExceededError);
    expect(limiter.queued()).toBe(1);
    first();
    (await survivor)();
    expect(order).toEqual(['survivor']);
    expect(limiter.active()).toBe(0);
  });
});
