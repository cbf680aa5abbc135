/**
 * Configuration is read from the environment exactly once per service, here, and validated with zod.
 * A bad value stops the start with a message naming the variable and the value.
 */
import { z } from 'zod';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** `true/false/1/0/yes/no` from an environment variable. */
export const envBoolean = z.enum(['true', 'false', '1', '0', 'yes', 'no', 'TRUE', 'FALSE']).transform((v) => ['true', '1', 'yes', 'TRUE'].includes(v));

/** A whole number from an environment variable, within bounds. */
export const envInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d+$/, { message: `must be a whole number from ${min} to ${max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { message: `must be from ${min} to ${max}` })
        .max(max, { message: `must be from ${min} to ${max}` }),
    );

export const BaseConfigSchema = z.object({
  /** Comma-separated NATS server URLs. */
  NATS_URL: z
    .string()
    .default('nats://127.0.0.1:4222')
    .refine((v) => v.split(',').every((u) => /^(nats|tls|ws|wss):\/\/[^\s/]+/.test(u.trim())), {
      message: 'must be nats://host:port (comma-separated for several)',
    }),
  /** Credentials when the NATS server requires them (deploy/docker/nats/nats.conf); both or neither. */
  NATS_USER: z.string().min(1).optional(),
  NATS_PASSWORD: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Instance name in logs, pings and telemetry; defaults to hostname-pid. */
  SERVICE_INSTANCE: z.string().min(1).optional(),
  /** When set, a small HTTP server answers /health and /ready on this port (container probes). */
  HEALTH_PORT: envInt(1, 65535).optional(),
  /** When set, Prometheus text metrics are served on this port at /metrics. */
  METRICS_PORT: envInt(1, 65535).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: z.url().optional(),
  /** `none` turns OTLP export off even when an endpoint is set. */
  OTEL_TRACES_EXPORTER: z.string().optional(),
  /** Milliseconds a shutdown may take before the process exits anyway. */
  SHUTDOWN_TIMEOUT_MS: envInt(100, 600_000).default(25_000),
});
export type BaseConfig = z.infer<typeof BaseConfigSchema>;

export function loadConfig<S extends z.ZodType>(schema: S, env: Record<string, string | undefined> = process.env): z.infer<S> {
  // Empty strings mean "not set", as in docker-compose files with `VAR=`.
  const cleaned: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') cleaned[k] = v;
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? '(config)');
    const given = cleaned[name];
    return `  ${name}=${given === undefined ? '(unset)' : JSON.stringify(given)}: ${issue.message}`;
  });
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

/** NATS_USER / NATS_PASSWORD as connectNats options; one without the other is a configuration error. */
export function natsCredentials(config: Pick<BaseConfig, 'NATS_USER' | 'NATS_PASSWORD'>): { user?: string; pass?: string } {
  if (config.NATS_USER === undefined && config.NATS_PASSWORD === undefined) return {};
  if (config.NATS_USER === undefined || config.NATS_PASSWORD === undefined) {
    const missing = config.NATS_USER === undefined ? 'NATS_USER' : 'NATS_PASSWORD';
    throw new ConfigError(`Invalid configuration:\n  ${missing}=(unset): NATS_USER and NATS_PASSWORD go together`);
  }
  return { user: config.NATS_USER, pass: config.NATS_PASSWORD };
}
