/**
 * The common main of every NATS service: config, telemetry (before anything that could create a
 * span), logger, NATS connection, the service's own start(), probes, and graceful shutdown.
 */
import { hostname } from 'node:os';
import type { Server } from 'node:http';
import type { NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import { connectNats } from '../nats/connect.ts';
import { startTelemetry, type Telemetry } from '../telemetry/sdk.ts';
import { WARM_COMPILE_CACHE_ENV } from './compile-cache.ts';
import { BaseConfigSchema, ConfigError, loadConfig, natsCredentials, type BaseConfig } from './config.ts';
import { startHealthServer } from './health-server.ts';
import { createLogger, type Logger } from './logger.ts';
import { handleShutdown } from './shutdown.ts';

export interface Started {
  /** Stop intake and drain in-flight work; dependencies are closed afterwards by the runtime. */
  stop(): Promise<void>;
}

export interface ServiceContext<C> {
  config: C;
  nc: NatsConnection;
  log: Logger;
  instance: string;
  telemetry: Telemetry;
}

export interface ServiceDefinition<S extends z.ZodObject> {
  name: string;
  /** Extra variables of this service; merged with BaseConfigSchema. */
  config?: S;
  start(ctx: ServiceContext<BaseConfig & z.infer<S>>): Promise<Started>;
}

export function telemetryFromConfig(name: string, config: BaseConfig): Telemetry {
  const otlpOn = config.OTEL_TRACES_EXPORTER !== 'none' && Boolean(config.OTEL_EXPORTER_OTLP_ENDPOINT || config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  return startTelemetry({
    serviceName: name,
    otlp: otlpOn ? { tracesEndpoint: config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, metricsEndpoint: config.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT } : null,
    prometheusPort: config.METRICS_PORT,
  });
}

export async function runService<S extends z.ZodObject>(def: ServiceDefinition<S>): Promise<void> {
  // ES modules are all loaded (and stripped) before any of them runs: nothing is left to load here.
  if (process.env[WARM_COMPILE_CACHE_ENV] === '1') process.exit(0);
  let config: BaseConfig & z.infer<S>;
  let credentials: { user?: string; pass?: string };
  try {
    const schema = def.config ? BaseConfigSchema.extend(def.config.shape) : BaseConfigSchema;
    config = loadConfig(schema) as BaseConfig & z.infer<S>;
    credentials = natsCredentials(config);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${def.name}: ${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  const telemetry = telemetryFromConfig(def.name, config);
  const log = createLogger(def.name, config.LOG_LEVEL);
  const instance = config.SERVICE_INSTANCE ?? `${hostname()}-${process.pid}`;

  let nc: NatsConnection | undefined;
  let started: Started | undefined;
  let health: Server | undefined;
  const shutdown = handleShutdown(
    () => [
      {
        name: 'stop intake and drain',
        run: async () => {
          await started?.stop();
        },
      },
      {
        name: 'close NATS',
        run: async () => {
          if (nc && !nc.isClosed()) await nc.drain();
        },
      },
      {
        name: 'close probes',
        run: async () => {
          await new Promise<void>((r) => (health ? health.close(() => r()) : r()));
        },
      },
      { name: 'flush telemetry', run: () => telemetry.shutdown() },
    ],
    { log, timeoutMs: config.SHUTDOWN_TIMEOUT_MS },
  );

  try {
    nc = await connectNats({ url: config.NATS_URL, name: `${def.name}:${instance}`, waitMs: 30_000, ...credentials });
    const conn = nc;
    void conn.closed().then((err) => {
      if (err) log.error({ err }, 'NATS connection closed with an error');
    });
    started = await def.start({ config, nc: conn, log, instance, telemetry });
    if (config.HEALTH_PORT !== undefined) {
      health = await startHealthServer(config.HEALTH_PORT, () => !conn.isClosed() && conn.status !== undefined);
    }
    log.info({ nats: config.NATS_URL }, `${def.name} started`);
  } catch (err) {
    log.fatal({ err }, `${def.name} failed to start`);
    await shutdown.trigger('start failed', true);
  }
}
