/**
 * The building blocks of /openapi.json shared by openapi.ts and openapi-batch.ts: zod -> JSON Schema,
 * $ref helpers, the success envelope, the response headers and the error responses. A module of its
 * own so the two documents' parts do not import each other (test/structure/imports.test.ts).
 */
import { z } from 'zod';
import { CacheResponseHeadersSchema, successEnvelope } from '@enrich/shared/contracts';
import { EXAMPLE_REQUEST_ID, errorExample } from './openapi-examples.ts';

export type JsonSchema = Record<string, unknown>;

export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

export const ref = (kind: 'schemas' | 'responses' | 'headers', name: string) => ({ $ref: `#/components/${kind}/${name}` });
export const json = (schema: JsonSchema, example: unknown) => ({ 'application/json': { schema, example } });

/** The success envelope of a data schema, with `data` and `meta` pointing at named components. */
export function envelopeSchema(dataRef: JsonSchema): JsonSchema {
  const env = jsonSchema(successEnvelope(z.object({})), 'output') as { properties: Record<string, unknown> };
  return { ...env, properties: { ...env.properties, data: dataRef, meta: ref('schemas', 'Meta') } };
}

export const HEADERS: Record<string, JsonSchema> = {
  RequestId: { description: 'The request id, also in meta.requestId', schema: { type: 'string', format: 'uuid' } },
  RetryAfter: { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
  CreditsUsed: { description: 'credits_used of the key after this request', schema: { type: 'integer', minimum: 0 } },
  CreditsLimit: { description: 'credits_limit of the key', schema: { type: 'integer', minimum: 0 } },
  RateLimitLimit: { description: 'Requests per minute allowed for this key', schema: { type: 'integer', minimum: 1 } },
  RateLimitRemaining: { description: 'Requests the key could make right now', schema: { type: 'integer', minimum: 0 } },
  RateLimitReset: { description: "Seconds until the key's window is empty again", schema: { type: 'integer', minimum: 0 } },
};
/** Response headers whose schema is a contract (X-Cache, Age): described from the zod schema itself. */
function contractHeaders(schema: z.ZodObject): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(schema.shape).map(([name, field]) => {
      const { description, ...rest } = jsonSchema(field as z.ZodType, 'output');
      return [name.replace(/^X-/, '').replace(/-/g, ''), { description, schema: rest }];
    }),
  );
}
Object.assign(HEADERS, contractHeaders(CacheResponseHeadersSchema), {
  IdempotentReplayed: {
    description: 'Present (`true`) when this answer is the stored first answer to the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
});
export const header = (name: string) => ref('headers', name);
export const CACHE_HEADERS = Object.fromEntries(
  Object.keys(CacheResponseHeadersSchema.shape).map((name) => [name, header(name.replace(/^X-/, '').replace(/-/g, ''))]),
);
export const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same key with the same parameters within 24 h gets the first answer again and is charged once (1 to 255 printable ASCII characters, scoped to the API key).',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};
export const RATE_HEADERS = {
  'X-RateLimit-Limit': header('RateLimitLimit'),
  'X-RateLimit-Remaining': header('RateLimitRemaining'),
  'X-RateLimit-Reset': header('RateLimitReset'),
};
export const CREDIT_HEADERS = { 'X-Credits-Used': header('CreditsUsed'), 'X-Credits-Limit': header('CreditsLimit') };

/** Error responses: status, description, an example message of the edge, extra headers. */
export const ERRORS: Record<string, { status: number; description: string; example: string; headers?: Record<string, unknown> }> = {
  BadRequest: {
    status: 400,
    description: 'Invalid, missing, unknown or repeated query parameter, or a URL that is refused',
    example: 'Invalid query parameter "width": got "wide", allowed: a whole number from 320 to 5000',
  },
  Unauthorized: { status: 401, description: 'Missing X-API-Key header, or an unknown or revoked key (`Invalid API key`)', example: 'Invalid API key' },
  PaymentRequired: { status: 402, description: 'The key has no credits left for this request', example: 'Credit limit exceeded', headers: CREDIT_HEADERS },
  TooManyRequests: {
    status: 429,
    description: 'Rate limit exceeded, per client IP or per key; wait Retry-After seconds',
    example: 'Rate limit exceeded: this API key allows 60 requests per minute; retry in 12 s',
    headers: { 'Retry-After': header('RetryAfter'), ...RATE_HEADERS },
  },
  InternalError: {
    status: 500,
    description: 'Internal error; the message names the request id (the cause is logged, never sent)',
    example: `Internal error; quote request id ${EXAMPLE_REQUEST_ID} when reporting it`,
  },
  BadGateway: {
    status: 502,
    description:
      'The target site could not be reached (DNS, refused connection, TLS), or answered something that is not its site (bot challenge, CAPTCHA, parked domain, HTTP error page, non-HTML file); never charged, never cached',
    example: 'Could not load https://northwind.example/: net::ERR_NAME_NOT_RESOLVED',
  },
  Conflict: {
    status: 409,
    description:
      'A request with the same Idempotency-Key is still running (retry after Retry-After seconds to get its answer), or, on DELETE /batch/{id}, the batch has already ended',
    example: 'A request with this Idempotency-Key is still in progress; retry shortly',
    headers: { 'Retry-After': header('RetryAfter') },
  },
  UnprocessableContent: {
    status: 422,
    description: 'The Idempotency-Key was used with other parameters',
    example: 'This Idempotency-Key was used with other parameters; use a new key for a different request',
  },
  ServiceUnavailable: {
    status: 503,
    description: 'A backing service is temporarily unavailable or busy; retry after Retry-After seconds',
    example: 'Service temporarily unavailable: no renderer answered; retry later',
    headers: { 'Retry-After': header('RetryAfter') },
  },
  GatewayTimeout: {
    status: 504,
    description: 'The request budget ran out',
    example: 'The request budget of 30000 ms ran out while render.page was still running',
  },
  NotFound: {
    status: 404,
    description: "No such batch for this API key (another key's batch is not shown either)",
    example: 'No batch "bat_0f3c9a1e2b4d6f8091a2b3c4" for this API key',
  },
  NotReady: {
    status: 503,
    description: 'Not ready; `error` names the failed dependencies',
    example: 'Not ready: renderer did not answer',
    headers: { 'Retry-After': header('RetryAfter') },
  },
};

export function errorComponents(): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(ERRORS).map(([name, e]) => [
      name,
      {
        description: e.description,
        headers: { 'X-Request-Id': header('RequestId'), ...e.headers },
        content: json(ref('schemas', 'ErrorEnvelope'), errorExample(e.example)),
      },
    ]),
  );
}

export const errors = (...names: Array<keyof typeof ERRORS>) => Object.fromEntries(names.map((n) => [String(ERRORS[n]?.status), ref('responses', n)]));
