/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests and answers
 * (zod v4 z.toJSONSchema), so the documentation cannot drift from the behaviour. Query parameters are
 * documented as the API's types (the `output` side of the contract: integers with bounds and defaults,
 * booleans, enums), not as the strings the parser accepts; a parameter added to a query schema in
 * shared/src/contracts/http.ts appears here without an edit. `servers` is filled per request
 * (`withServers`).
 */
import { z } from 'zod';
import { CREDIT_COSTS, ErrorEnvelopeSchema, HealthResponseSchema, MetaSchema, ReadyResponseSchema, type PaidEndpoint } from '@enrich/shared/contracts';
import { DATA_EXAMPLES, DURATION_EXAMPLES, successExample } from './openapi-examples.ts';
import { ALLOWED } from './params.ts';
import { PAID_ROUTES } from './routes/endpoints.ts';
import { BATCH_TAG, batchPaths, batchSchemas, batchWebhooks } from './openapi-batch.ts';
import {
  CACHE_HEADERS,
  CREDIT_HEADERS,
  HEADERS,
  IDEMPOTENCY_KEY,
  RATE_HEADERS,
  envelopeSchema,
  errorComponents,
  errors,
  header,
  json,
  jsonSchema,
  ref,
  type JsonSchema,
} from './openapi-parts.ts';

export type OpenApiDocument = JsonSchema & { paths: Record<string, JsonSchema>; servers?: Array<{ url: string; description?: string }> };

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
  follow_links:
    'When the page itself lacks a legal name or contact data, also read up to two same-site contact, imprint, terms/privacy or about pages (no extra credits).',
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

const schemaName = (endpoint: PaidEndpoint): string => `${endpoint[0]?.toUpperCase()}${endpoint.slice(1)}Data`;

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
        headers: {
          'X-Request-Id': header('RequestId'),
          ...CREDIT_HEADERS,
          ...RATE_HEADERS,
          ...CACHE_HEADERS,
          'Idempotent-Replayed': header('IdempotentReplayed'),
        },
        content: json(
          envelopeSchema(ref('schemas', schemaName(route.endpoint))),
          successExample(DATA_EXAMPLES[route.endpoint], DURATION_EXAMPLES[route.endpoint]),
        ),
      },
      ...errors(
        'BadRequest',
        'Unauthorized',
        'PaymentRequired',
        'Conflict',
        'UnprocessableContent',
        'TooManyRequests',
        'InternalError',
        'BadGateway',
        'ServiceUnavailable',
        'GatewayTimeout',
      ),
    },
  };
}

function probePaths(): Record<string, JsonSchema> {
  const ok = { status: 'ok', uptimeSeconds: 3600 };
  const ready = {
    status: 'ready',
    checks: { nats: { ok: true, detail: 'answered' }, store: { ok: true, detail: 'answered' }, renderer: { ok: true, detail: 'answered' } },
  };
  const probe = (operationId: string, summary: string, schema: z.ZodType, example: unknown, description: string, extra: Record<string, unknown>) => ({
    get: {
      operationId,
      tags: ['Probes'],
      summary,
      security: [],
      responses: {
        200: { description, headers: { 'X-Request-Id': header('RequestId') }, content: json(jsonSchema(schema, 'output'), successExample(example, 1)) },
        ...errors('BadRequest', 'InternalError'),
        ...extra,
      },
    },
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
