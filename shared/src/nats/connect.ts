import { connect, type NatsConnection } from '@nats-io/transport-node';
import { UnavailableError } from '../errors.ts';

export interface ConnectOptions {
  url: string;
  /** Client name shown in the server's connection list. */
  name: string;
  /** How long to keep trying at start before giving up (a service started before NATS waits for it). */
  waitMs?: number;
  /** User and password when the server requires them (NATS_USER / NATS_PASSWORD). */
  user?: string;
  pass?: string;
}

/** The server refused the credentials (or their absence): waiting will not change that. */
const isAuthError = (err: unknown): boolean => err instanceof Error && err.name === 'AuthorizationError';

export async function connectNats(opts: ConnectOptions): Promise<NatsConnection> {
  const until = Date.now() + (opts.waitMs ?? 0);
  for (;;) {
    try {
      return await connect({
        servers: opts.url.split(',').map((s) => s.trim()),
        name: opts.name,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
        ...(opts.user !== undefined ? { user: opts.user, pass: opts.pass ?? '' } : {}),
      });
    } catch (err) {
      if (isAuthError(err)) {
        const how = opts.user !== undefined ? `as user "${opts.user}" (NATS_USER / NATS_PASSWORD)` : 'without credentials; set NATS_USER and NATS_PASSWORD';
        throw new UnavailableError(`NATS at ${opts.url} refused the connection ${how}: ${(err as Error).message}`, { cause: err });
      }
      if (Date.now() >= until) {
        throw new UnavailableError(`cannot connect to NATS at ${opts.url}: ${(err as Error).message}`, { cause: err });
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
