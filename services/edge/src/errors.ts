/**
 * THE one place where failures become HTTP statuses. ServiceErrors (ours or rebuilt from a NATS
 * reply) map by code; the edge's own refusals are EdgeHttpErrors with a status from EDGE_STATUS;
 * anything else is a 500 whose body names the requestId and never carries a stack or internal detail.
 */
import { ServiceError, type ErrorCode } from '@enrich/shared/errors';

/** The statuses of the refusals the edge decides itself; no other module writes a status number. */
export const EDGE_STATUS = {
  MALFORMED_REQUEST: 400,
  INVALID_IDEMPOTENCY_KEY: 400,
  UNAUTHENTICATED: 401,
  CREDITS_EXHAUSTED: 402,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  IDEMPOTENCY_IN_PROGRESS: 409,
  /** DELETE /batch/{id} of a batch that has already ended. */
  BATCH_ENDED: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  NOT_READY: 503,
} as const;

/** A refusal decided by the edge itself, with its status and any headers (Retry-After, Allow). */
export class EdgeHttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'EdgeHttpError';
    this.status = status;
    this.headers = headers;
  }
}

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  INVALID_PARAMETER: 400,
  URL_FORBIDDEN: 400,
  TARGET_UNREACHABLE: 502,
  TARGET_NOT_A_SITE: 502,
  BUSY: 503,
  NO_RESPONDERS: 503,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
  BAD_MESSAGE: 500,
  INTERNAL: 500,
};

/** Seconds a client should wait before retrying a temporary 503. */
const RETRY_AFTER_UNAVAILABLE_S = 5;

export interface HttpFailure {
  status: number;
  message: string;
  headers: Record<string, string>;
  /** True when the message is our generic 500 text and the real cause must be logged. */
  hidden: boolean;
}

function internal(requestId: string): HttpFailure {
  return { status: 500, message: `Internal error; quote request id ${requestId} when reporting it`, headers: {}, hidden: true };
}

export function toHttpFailure(err: unknown, requestId: string): HttpFailure {
  if (err instanceof EdgeHttpError) return { status: err.status, message: err.message, headers: err.headers, hidden: false };
  if (err instanceof ServiceError) {
    const status = STATUS_BY_CODE[err.code];
    if (status >= 500 && status !== 502 && status !== 503 && status !== 504) return internal(requestId);
    const headers: Record<string, string> = status === 503 ? { 'retry-after': String(RETRY_AFTER_UNAVAILABLE_S) } : {};
    const prefix = status === 503 ? 'Temporarily unavailable, retry in a few seconds: ' : '';
    return { status, message: `${prefix}${err.message}`, headers, hidden: false };
  }
  // Fastify's own client errors (malformed request, unsupported media type, body too large, ...).
  const fst = err as { statusCode?: unknown; message?: unknown; code?: unknown } | null;
  if (typeof fst?.statusCode === 'number' && fst.statusCode >= 400 && fst.statusCode < 500 && typeof fst.message === 'string') {
    return { status: fst.statusCode, message: fst.message, headers: {}, hidden: false };
  }
  return internal(requestId);
}
