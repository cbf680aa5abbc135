/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests and answers
 * (zod v4 z.toJSONSchema), so the documentation cannot drift from the behaviour. Query parameters are
 * documented as the API's types (the `output` side of the contract: integers with bounds and defaults,
 * booleans, enums), not as the strings the parser accepts; a parameter added to a query schema in
 * shared/src/contracts/http.ts appears here without an edit. `servers` is filled per request
 * (`withServers`).
 */
import { z } from 'zod';
import { CacheResponseHeadersSchema, CREDIT_COSTS, ErrorEnvelopeSchema, HealthResponseSchema, MetaSchema, ReadyResponseSchema, successEnvelope, type PaidEndpoint } from '@enrich/shared/contracts';
import { DATA_EXAMPLES, DURATION_EXAMPLES, EXAMPLE_REQUEST_ID, errorExample, successExample } from './openapi-examples.ts';
import { ALLOWED } from './params.ts';
import { PAID_ROUTES } from './routes/endpoints.ts';
import { BATCH_TAG, batchPaths, batchSchemas, batchWebhooks } from './batch/openapi.ts';

type JsonSchema = Record<string, unknown>;
export type OpenApiDocument = JsonSchema & { paths: Record<string, JsonSchema>; servers?: Array<{ url: string; description?: string }> };

export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** What a person needs to know about each parameter; the schema carries type, bounds and default. */
const PARAM_DOCS: Record<string, string> = {
  url: 'The page to analyse: an http:// or https:// URL (http:// is assumed when no scheme is given). Private, loopback and metadata addresses are refused.',
  width: 'Viewport width in CSS pixels.',
  height: 'Viewport height in CSS pixels (also the screenshot height unless full_page).',
  format: 'Screenshot image format.',
  full_page: 'Capture the whole page instead of the viewport.',
  screenshotColors: 'Number of dominant screenshot colors to return (colors.screenshot_colors); none when absent.',
  css: 'Fill colors.code_colors.css with the colors used in the stylesheets.',
  html: 'Fill colors.code_colors.html with the colors in inline styles and attributes.',
  javascript: 'Fill colors.code_colors.javascript with the colors in scripts.',
  follow_links: 'When the page itself lacks a legal name or contact data, also read up to two same-site contact/about/imprint pages (no extra credits).',
};
const BOOLEAN_NOTE = ' `true` or `false`; `1`, `0` and capitalised spellings are accepted too.';

function queryParameters(query: z.ZodObject): JsonSchema[] {
  return Object.entries(query.shape).map(([name, field]) => {
    const type = field as z.ZodType;
    const schema = jsonSchema(type, 'output');
    const words = type.description ?? PARAM_DOCS[name] ?? (ALLOWED[name] ? `Allowed: ${ALLOWED[name]}.` : name);
    return { name, in: 'query', required: !type.safeParse(undefined).success, description: schema.type === 'boolean' ? words + BOOLEAN_NOTE : words, schema };
  });
}

export const ref = (kind: 'schemas' | 'responses' | 'headers', name: string) => ({ $ref: `#/components/${kind}/${name}` });
export const json = (schema: JsonSchema, example: unknown) => ({ 'application/json': { schema, example } });
const schemaName = (endpoint: PaidEndpoint): string => `${endpoint[0]?.toUpperCase()}${endpoint.slice(1)}Data`;

/** The success envelope of a data schema, with `data` and `meta` pointing at named components. */
export function envelopeSchema(dataRef: JsonSchema): JsonSchema {
  const env = jsonSchema(successEnvelope(z.object({})), 'output') as { properties: Record<string, unknown> };
  return { ...env, properties: { ...env.properties, data: dataRef, meta: ref('schemas', 'Meta') } };
}

const HEADERS: Record<string, JsonSchema> = {
  RequestId: { description: 'The request id, also in meta.requestId', schema: { type: 'string', format: 'uuid' } },
  RetryAfter: { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
  CreditsUsed: { description: 'credits_used of the key after this request', schema: { type: 'integer', minimum: 0 } },
  CreditsLimit: { description: 'credits_limit of the key', schema: { type: 'integer', minimum: 0 } },
  RateLimitLimit: { description: 'Requests per minute allowed for this key', schema: { type: 'integer', minimum: 1 } },
  RateLimitRemaining: { description: 'Requests the key could make right now', schema: { type: 'integer', minimum: 0 } },
  RateLimitReset: { description: 'Seconds until the key\'s window is empty again', schema: { type: 'integer', minimum: 0 } },
};
/** Response headers whose schema is a contract (X-Cache, Age): described from the zod schema itself. */
function contractHeaders(schema: z.ZodObject): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(schema.shape).map(([name, field]) => {
    const { description, ...rest } = jsonSchema(field as z.ZodType, 'output');
    return [name.replace(/^X-/, '').replace(/-/g, ''), { description, schema: rest }];
  }));
}
Object.assign(HEADERS, contractHeaders(CacheResponseHeadersSchema), {
  IdempotentReplayed: { description: 'Present (`true`) when this answer is the stored first answer to the same Idempotency-Key', schema: { type: 'string', enum: ['true'] } },
});
export const header = (name: string) => ref('headers', name);
const CACHE_HEADERS = Object.fromEntries(Object.keys(CacheResponseHeadersSchema.shape).map((name) => [name, header(name.replace(/^X-/, '').replace(/-/g, ''))]));
const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Makes a retry safe: the same key with the same parameters within 24 h gets the first answer again and is charged once (1 to 255 printable ASCII characters, scoped to the API key).',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};
export const RATE_HEADERS = { 'X-RateLimit-Limit': header('RateLimitLimit'), 'X-RateLimit-Remaining': header('RateLimitRemaining'), 'X-RateLimit-Reset': header('RateLimitReset') };
const CREDIT_HEADERS = { 'X-Credits-Used': header('CreditsUsed'), 'X-Credits-Limit': header('CreditsLimit') };

/** Error responses: status, description, an example message of the edge, extra headers. */
const ERRORS: Record<string, { status: number; description: string; example: string; headers?: Record<string, unknown> }> = {
  BadRequest: { status: 400, description: 'Invalid, missing, unknown or repeated query parameter, or a URL that is refused', example: 'Invalid query parameter "width": got "wide", allowed: a whole number from 320 to 5000' },
  Unauthorized: { status: 401, description: 'Missing X-API-Key header, or an unknown or revoked key (`Invalid API key`)', example: 'Invalid API key' },
  PaymentRequired: { status: 402, description: 'The key has no credits left for this request', example: 'Credit limit exceeded', headers: CREDIT_HEADERS },
  TooManyRequests: { status: 429, description: 'Rate limit exceeded, per client IP or per key; wait Retry-After seconds', example: 'Rate limit exceeded: this API key allows 60 requests per minute; retry in 12 s', headers: { 'Retry-After': header('RetryAfter'), ...RATE_HEADERS } },
  InternalError: { status: 500, description: 'Internal error; the message names the request id (the cause is logged, never sent)', example: `Internal error; quote request id ${EXAMPLE_REQUEST_ID} when reporting it` },
  BadGateway: { status: 502, description: 'The target site could not be reached (DNS, refused connection, TLS), or answered something that is not its site (bot challenge, CAPTCHA, parked domain, HTTP error page, non-HTML file); never charged, never cached', example: 'Could not load https://northwind.example/: net::ERR_NAME_NOT_RESOLVED' },
  Conflict: { status: 409, description: 'A request with the same Idempotency-Key is still running (retry after Retry-After seconds to get its answer), or, on DELETE /batch/{id}, the batch has already ended', example: 'A request with this Idempotency-Key is still in progress; retry shortly', headers: { 'Retry-After': header('RetryAfter') } },
  UnprocessableContent: { status: 422, description: 'The Idempotency-Key was used with other parameters', example: 'This Idempotency-Key was used with other parameters; use a new key for a different request' },
  ServiceUnavailable: { status: 503, description: 'A backing service is temporarily unavailable or busy; retry after Retry-After seconds', example: 'Service temporarily unavailable: no renderer answered; retry later', headers: { 'Retry-After': header('RetryAfter') } },
  GatewayTimeout: { status: 504, description: 'The request budget ran out', example: 'The request budget of 30000 ms ran out while render.page was still running' },
  NotFound: { status: 404, description: 'No such batch for this API key (another key\'s batch is not shown either)', example: 'No batch "bat_0f3c9a1e2b4d6f8091a2b3c4" for this API key' },
  NotReady: { status: 503, description: 'Not ready; `error` names the failed dependencies', example: 'Not ready: renderer did not answer', headers: { 'Retry-After': header('RetryAfter') } },
};

function errorComponents(): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(ERRORS).map(([name, e]) => [name, {
    description: e.description,
    headers: { 'X-Request-Id': header('RequestId'), ...e.headers },
    content: json(ref('schemas', 'ErrorEnvelope'), errorExample(e.example)),
  }]));
}

export const errors = (...names: Array<keyof typeof ERRORS>) => Object.fromEntries(names.map((n) => [String(ERRORS[n]?.status), ref('responses', n)]));

function paidOperation(route: (typeof PAID_ROUTES)[number]): JsonSchema {
  const cost = CREDIT_COSTS[route.endpoint];
  return {
    operationId: route.endpoint,
    tags: ['Enrichment'],
    summary: route.summary,
    description: `Costs ${cost} credit${cost > 1 ? 's' : ''} per successful request (HTTP 200 with success true); every other outcome is free.`,
    security: [{ ApiKey: [] }],
    parameters: [...queryParameters(route.query), IDEMPOTENCY_KEY],
    responses: {
      200: {
        description: 'Success envelope',
        headers: { 'X-Request-Id': header('RequestId'), ...CREDIT_HEADERS, ...RATE_HEADERS, ...CACHE_HEADERS, 'Idempotent-Replayed': header('IdempotentReplayed') },
        content: json(envelopeSchema(ref('schemas', schemaName(route.endpoint))), successExample(DATA_EXAMPLES[route.endpoint], DURATION_EXAMPLES[route.endpoint])),
      },
      ...errors('BadRequest', 'Unauthorized', 'PaymentRequired', 'Conflict', 'UnprocessableContent', 'TooManyRequests', 'InternalError', 'BadGateway', 'ServiceUnavailable', 'GatewayTimeout'),
    },
  };
}

function probePaths(): Record<string, JsonSchema> {
  const ok = { status: 'ok', uptimeSeconds: 3600 };
  const ready = { status: 'ready', checks: { nats: { ok: true, detail: 'answered' }, store: { ok: true, detail: 'answered' }, renderer: { ok: true, detail: 'answered' } } };
  const probe = (operationId: string, summary: string, schema: z.ZodType, example: unknown, description: string, extra: Record<string, unknown>) => ({
    get: { operationId, tags: ['Probes'], summary, security: [], responses: { 200: { description, headers: { 'X-Request-Id': header('RequestId') }, content: json(jsonSchema(schema, 'output'), successExample(example, 1)) }, ...errors('BadRequest', 'InternalError'), ...extra } },
  });
  return {
    '/health': probe('health', 'Liveness: 200 while the process runs', HealthResponseSchema, ok, 'Alive', {}),
    '/ready': probe('ready', 'Readiness: 200 when NATS, the store and at least one renderer answer', ReadyResponseSchema, ready, 'Ready', errors('NotReady')),
  };
}

const DESCRIPTION = [
  'Give it a website URL; get back the brand, the company behind it, an IAB category and screenshots.',
  'Every response, errors included, is an envelope `{ success, data | error, meta: { requestId, durationMs } }`; `meta.requestId` is also in `X-Request-Id`.',
  'The data endpoints and probes answer GET only: another method on a known path is a 405 with `Allow`, an unknown path a 404, both with the error envelope.',
  'Lists of URLs go to `POST /batch`: a durable job whose items are charged one by one like single requests; poll `GET /batch/{id}` or receive the signed `batchFinished` webhook.',
  'Screenshots are served from the `screenshot_url` the answers give.',
].join('\n\n');

export function buildOpenApiDocument(): OpenApiDocument {
  const paths: Record<string, JsonSchema> = {};
  for (const route of PAID_ROUTES) paths[route.path] = { get: paidOperation(route) };
  Object.assign(paths, probePaths(), batchPaths());
  const dataSchemas = Object.fromEntries(PAID_ROUTES.map((r) => [schemaName(r.endpoint), jsonSchema(r.data, 'output')]));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Web Enrichment API',
      version: '1.0.0',
      description: DESCRIPTION,
      // No open-source licence is granted; the identifier is SPDX's form for a licence of one's own.
      license: { name: 'Proprietary: use under the terms of your API agreement', identifier: 'LicenseRef-Proprietary' },
    },
    tags: [
      { name: 'Enrichment', description: 'The paid endpoints: each loads the page once in a headless browser; need an API key and cost credits.' },
      BATCH_TAG,
      { name: 'Probes', description: 'Liveness and readiness for load balancers and orchestrators: free, no key, not rate-limited.' },
    ],
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Created with `npm run keys -- create`.' } },
      schemas: { ...dataSchemas, ...batchSchemas(), Meta: jsonSchema(MetaSchema, 'output'), ErrorEnvelope: jsonSchema(ErrorEnvelopeSchema, 'output') },
      responses: errorComponents(),
      headers: HEADERS,
    },
    security: [{ ApiKey: [] }],
    paths,
    webhooks: batchWebhooks(),
  };
}

/** The document with `servers`: PUBLIC_URL when configured, else the origin the request reached. */
export function withServers(doc: OpenApiDocument, url: string): OpenApiDocument {
  return { ...doc, servers: [{ url: url.length > 1 ? url.replace(/\/+$/, '') : url, description: 'This API' }] };
}
