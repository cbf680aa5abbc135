import { connect, type NatsConnection } from '@nats-io/transport-node';
import { UnavailableError } from '../errors.ts';

export interface ConnectOptions {
  url: string;
  /** Client name shown in the server's connection list. */
  name: string;
  /** How long to keep trying at start before giving up (a service started before NATS waits for it). */
  waitMs?: number;
}

export async function connectNats(opts: ConnectOptions): Promise<NatsConnection> {
  const until = Date.now() + (opts.waitMs ?? 0);
  for (;;) {
    try {
      return await connect({
        servers: opts.url.split(',').map((s) => s.trim()),
        name: opts.name,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
      });
    } catch (err) {
      if (Date.now() >= until) {
        throw new UnavailableError(`cannot connect to NATS at ${opts.url}: ${(err as Error).message}`, { cause: err });
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
