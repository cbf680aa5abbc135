/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests and answers
 * (zod v4 z.toJSONSchema), so the documentation cannot drift from the behaviour.
 */
import { z } from 'zod';
import { CacheResponseHeadersSchema, CREDIT_COSTS, ErrorEnvelopeSchema, HealthResponseSchema, ReadyResponseSchema, successEnvelope } from '@enrich/shared/contracts';
import { ALLOWED } from './params.ts';
import { PAID_ROUTES } from './routes/endpoints.ts';

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function queryParameters(query: z.ZodObject): JsonSchema[] {
  return Object.entries(query.shape).map(([name, field]) => {
    const absent = (field as z.ZodType).safeParse(undefined);
    const schema = jsonSchema(field as z.ZodType, 'input');
    // zod drops defaults that sit in front of a transform (width: "1440" -> 1440); state them as sent.
    if (absent.success && absent.data !== undefined && !('default' in schema)) schema.default = String(absent.data);
    return { name, in: 'query', required: !absent.success, description: ALLOWED[name], schema };
  });
}

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

function errorResponses(statuses: Record<number, string>): Record<string, JsonSchema> {
  const envelope = { $ref: '#/components/schemas/ErrorEnvelope' };
  return Object.fromEntries(Object.entries(statuses).map(([status, description]) => [status, { description, content: json(envelope) }]));
}

const PAID_ERRORS = {
  400: 'Invalid, unknown or repeated query parameter; URL refused (not http(s), or a private/loopback address)',
  401: 'Missing X-API-Key header, or `Invalid API key`',
  402: '`Credit limit exceeded`',
  429: 'Rate limit exceeded (per IP or per key); see Retry-After',
  502: 'The target site could not be reached, or answered something that is not its site (bot challenge, CAPTCHA, parked domain, HTTP error page, non-HTML file); never charged',
  503: 'A backing service is temporarily unavailable; see Retry-After',
  504: 'The request budget ran out',
  500: 'Internal error; the message names the requestId',
};

const RESPONSE_HEADERS = {
  'X-Request-Id': { description: 'The request id, also in meta.requestId', schema: { type: 'string', format: 'uuid' } },
  'X-Credits-Used': { description: 'credits_used of the key after this request', schema: { type: 'integer' } },
  'X-Credits-Limit': { description: 'credits_limit of the key', schema: { type: 'integer' } },
  'X-RateLimit-Limit': { description: 'Requests per minute allowed for this key', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current sliding minute', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Seconds until the window is empty again', schema: { type: 'integer' } },
  ...contractHeaders(CacheResponseHeadersSchema),
};

function contractHeaders(schema: z.ZodObject): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(schema.shape).map(([name, field]) => {
    const { description, ...rest } = jsonSchema(field as z.ZodType, 'output');
    return [name, { description, schema: rest }];
  }));
}

export function buildOpenApiDocument(): JsonSchema {
  const paths: Record<string, JsonSchema> = {};
  for (const route of PAID_ROUTES) {
    paths[route.path] = {
      get: {
        operationId: route.endpoint,
        summary: route.summary,
        description: `Costs ${CREDIT_COSTS[route.endpoint]} credit${CREDIT_COSTS[route.endpoint] > 1 ? 's' : ''} per successful request (HTTP 200 with success true); failures are refunded.`,
        security: [{ ApiKey: [] }],
        parameters: queryParameters(route.query),
        responses: {
          200: { description: 'Success envelope', headers: RESPONSE_HEADERS, content: json(jsonSchema(successEnvelope(route.data), 'output')) },
          ...errorResponses(PAID_ERRORS),
        },
      },
    };
  }
  paths['/health'] = { get: { operationId: 'health', summary: 'Liveness: 200 while the process runs', security: [], responses: { 200: { description: 'Alive', content: json(jsonSchema(HealthResponseSchema, 'output')) } } } };
  paths['/ready'] = {
    get: {
      operationId: 'ready',
      summary: 'Readiness: 200 when NATS, the store and at least one renderer answer',
      security: [],
      responses: { 200: { description: 'Ready', content: json(jsonSchema(ReadyResponseSchema, 'output')) }, ...errorResponses({ 503: 'Not ready; `error` names the failed dependencies' }) },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Web Enrichment API',
      version: '1.0.0',
      description: 'Give it a website URL; get back the brand, the company behind it, an IAB category and screenshots. Every response is an envelope `{ success, data | error, meta: { requestId, durationMs } }`.',
    },
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      schemas: { ErrorEnvelope: jsonSchema(ErrorEnvelopeSchema, 'output') },
    },
    security: [{ ApiKey: [] }],
    paths,
  };
}
