/**
 * Errors as small named classes with a code and a `retryable` flag. They cross NATS as a
 * `WireError` and are rebuilt here on the caller's side; the edge maps `code` to an HTTP status
 * in one place (services/edge/src/errors.ts).
 */
import { z } from 'zod';

export const ERROR_CODES = [
  'INVALID_PARAMETER', // a request field is missing or out of bounds          -> 400
  'URL_FORBIDDEN', // the target URL is not http(s) or resolves to a forbidden address -> 400
  'TARGET_UNREACHABLE', // DNS failure, connection refused, TLS error on the target site -> 502
  'TARGET_NOT_A_SITE', // the target answered something that is not its site: bot challenge, parked domain, HTTP error page, PDF... -> 502
  'BUSY', // a service's queue is full; try again shortly                  -> 503
  'NO_RESPONDERS', // no instance serves the subject                          -> 503
  'UNAVAILABLE', // a dependency (store, NATS) is down                        -> 503
  'DEADLINE_EXCEEDED', // the request budget ran out                          -> 504
  'BAD_MESSAGE', // a message did not match its contract                     -> 500
  'INTERNAL', // anything else                                              -> 500
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const WireErrorSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  retryable: z.boolean(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type WireError = z.infer<typeof WireErrorSchema>;

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details: Record<string, unknown> | undefined;
  constructor(code: ErrorCode, message: string, opts: { retryable?: boolean; details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.retryable = opts.retryable ?? false;
    this.details = opts.details;
  }
  toWire(): WireError {
    return { code: this.code, message: this.message, retryable: this.retryable, ...(this.details ? { details: this.details } : {}) };
  }
}

type Opts = { details?: Record<string, unknown>; cause?: unknown };
export class InvalidParameterError extends ServiceError {
  constructor(message: string, opts: Opts = {}) {
    super('INVALID_PARAMETER', message, opts);
  }
}
export class UrlForbiddenError extends ServiceError {
  constructor(message: string, opts: Opts = {}) {
    super('URL_FORBIDDEN', message, opts);
  }
}
export class TargetUnreachableError extends ServiceError {
  constructor(message: string, opts: Opts = {}) {
    super('TARGET_UNREACHABLE', message, opts);
  }
}
/** The target answered, but not with its site (a bot challenge, a parked domain, an HTTP error page, a non-HTML file). */
export class TargetNotASiteError extends ServiceError {
  constructor(message: string, opts: Opts = {}) {
    super('TARGET_NOT_A_SITE', message, opts);
  }
}
export class BusyError extends ServiceError {
  constructor(message: string, opts: Opts = {}) {
    super('BUSY', message, { ...opts, retryable: true });
  }
}
export class NoRespondersError extends ServiceError {
  constructor(message: string, opts: Opts = {}) {
    super('NO_RESPONDERS', message, { ...opts, retryable: true });
  }
}
export class UnavailableError extends ServiceError {
  constructor(message: string, opts: Opts = {}) {
    super('UNAVAILABLE', message, { ...opts, retryable: true });
  }
}
export class DeadlineExceededError extends ServiceError {
  constructor(message: string, opts: Opts = {}) {
    super('DEADLINE_EXCEEDED', message, { ...opts, retryable: true });
  }
}
export class BadMessageError extends ServiceError {
  constructor(message: string, opts: Opts = {}) {
    super('BAD_MESSAGE', message, opts);
  }
}
export class InternalError extends ServiceError {
  constructor(message: string, opts: Opts = {}) {
    super('INTERNAL', message, opts);
  }
}

const BY_CODE: Record<ErrorCode, new (message: string, opts?: Opts) => ServiceError> = {
  INVALID_PARAMETER: InvalidParameterError,
  URL_FORBIDDEN: UrlForbiddenError,
  TARGET_UNREACHABLE: TargetUnreachableError,
  TARGET_NOT_A_SITE: TargetNotASiteError,
  BUSY: BusyError,
  NO_RESPONDERS: NoRespondersError,
  UNAVAILABLE: UnavailableError,
  DEADLINE_EXCEEDED: DeadlineExceededError,
  BAD_MESSAGE: BadMessageError,
  INTERNAL: InternalError,
};

/** Rebuilds the error class named by a wire envelope, so callers can `instanceof` it. */
export function fromWireError(wire: WireError): ServiceError {
  const Ctor = BY_CODE[wire.code];
  const err = new Ctor(wire.message, wire.details ? { details: wire.details } : {});
  return err;
}

/** Any thrown value as a ServiceError; unknown errors become INTERNAL without leaking their stack. */
export function toServiceError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new InternalError(message || 'internal error', { cause: err });
}
