/**
 * Store failures (NATS or MongoDB down, timeouts) become UnavailableError, so clients get a 503
 * with Retry-After instead of a 500, and the error mapping stays in errors.ts. The message is generic;
 * the store's own error (which may name hosts) is the cause, logged by the app's error handler.
 */
import { ServiceError, UnavailableError } from '@enrich/shared/errors';
import type { Store } from './port.ts';

export function guardStore(store: Store): Store {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } catch (err) {
          if (err instanceof ServiceError) throw err;
          // The driver's text can name internal hosts and addresses: it goes to the log (as the cause), not to clients.
          throw new UnavailableError('the key and credit store did not answer', { cause: err });
        }
      };
    },
  });
}
