/**
 * The batch API in /openapi.json: POST /batch, GET and DELETE /batch/{id}, their schemas (from the
 * zod contract in shared/src/contracts/batch.ts) and the `batchFinished` webhook. Everything is built
 * inside functions; the shared parts come from openapi-parts.ts.
 */
import {
  BatchCreatedSchema,
  BatchInfoSchema,
  BatchPageSchema,
  BatchRequestSchema,
  BatchWebhookBodySchema,
  type BatchInfo,
  type BatchPage,
} from '@enrich/shared/contracts';
import { EXAMPLE_REQUEST_ID, successExample } from './openapi-examples.ts';
import { RATE_HEADERS, envelopeSchema, errors, header, json, jsonSchema, ref } from './openapi-parts.ts';
import { PAGE_DEFAULT, PAGE_MAX } from './batch/routes.ts';

type JsonSchema = Record<string, unknown>;

export const BATCH_TAG = {
  name: 'Batch',
  description: 'Thousands of URLs as one durable job: items run in the background, each charged like a single request.',
};

const ID = 'bat_0f3c9a1e2b4d6f8091a2b3c4';
const info: BatchInfo = {
  id: ID,
  endpoint: 'classify',
  status: 'running',
  counts: { total: 3, succeeded: 1, failed: 1, pending: 1, skipped: 0 },
  creditsCharged: 1,
  maxAge: 86400,
  createdAt: '2026-11-23T18:40:00.000Z',
  startedAt: '2026-11-23T18:40:00.120Z',
  finishedAt: null,
  expiresAt: '2026-11-30T18:40:02.000Z',
  webhook: { url: 'https://crm.example/hooks/enrich', state: 'waiting', attempts: 0 },
};
const pageExample: BatchPage = {
  ...info,
  results: [
    {
      index: 0,
      state: 'succeeded',
      url: 'https://northwind.example',
      status: 200,
      requestId: EXAMPLE_REQUEST_ID,
      credits: 1,
      durationMs: 760,
      finishedAt: '2026-11-23T18:40:00.900Z',
      data: {
        url: 'https://northwind.example/',
        iab_id: 'IAB8-6',
        iab_parent_id: 'IAB8',
        category: 'Food & Drink',
        subcategory: 'Coffee/Tea',
        description: 'Northwind Roasters roasts single-origin coffee in Portland, Oregon.',
      },
    },
    {
      index: 1,
      state: 'failed',
      url: 'https://gone.example',
      status: 502,
      error: 'Could not load https://gone.example/: net::ERR_NAME_NOT_RESOLVED',
      requestId: '2c5e1a7b-8d2f-8a41-9c3e-5f6a7b8c9d0e',
      credits: 0,
      durationMs: 120,
      finishedAt: '2026-11-23T18:40:01.100Z',
    },
    { index: 2, state: 'pending' },
  ],
  nextCursor: null,
};

const SIGNATURE = "HMAC-SHA256 of `<X-Enrich-Timestamp>.<raw body>` with the key's webhook secret, as `sha256=<hex>`.";

function createOperation(): JsonSchema {
  return {
    operationId: 'createBatch',
    tags: ['Batch'],
    summary: 'Submit up to 10,000 URLs for one endpoint',
    description:
      'Validates every item up front (a 400 names each bad item by index; nothing is queued) and answers 202 with the batch id. Submitting is free; each item is charged when it succeeds, exactly like the single endpoint. Items run at a per-key concurrency (BATCH_KEY_CONCURRENCY) behind interactive requests; when the key runs out of credits the batch stops (`stopped_credits`).',
    security: [{ ApiKey: [] }],
    requestBody: {
      required: true,
      content: json(ref('schemas', 'BatchRequest'), {
        endpoint: 'classify',
        items: [{ url: 'https://northwind.example' }, { url: 'https://gone.example' }, { url: 'https://contoso.example' }],
        maxAge: 86400,
        webhook: 'https://crm.example/hooks/enrich',
      }),
    },
    responses: {
      202: {
        description: 'Queued',
        headers: { 'X-Request-Id': header('RequestId'), Location: { description: 'The status URL', schema: { type: 'string' } }, ...RATE_HEADERS },
        content: json(envelopeSchema(ref('schemas', 'BatchCreated')), successExample({ id: ID, status: 'queued', statusUrl: `/batch/${ID}`, total: 3 }, 41)),
      },
      ...errors('BadRequest', 'Unauthorized', 'PaymentRequired', 'TooManyRequests', 'InternalError', 'ServiceUnavailable'),
    },
  };
}

const idParam = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The batch id from POST /batch',
  schema: { type: 'string', pattern: '^bat_[0-9a-f]{24}$' },
};

function getOperation(): JsonSchema {
  return {
    operationId: 'getBatch',
    tags: ['Batch'],
    summary: 'Status, counts, timing and a page of results',
    description:
      "Results are in item order; each is the item's `data` as the single endpoint answers it, or its `error` with the HTTP `status` the single request would have had. Pending items show `state: pending`; once a batch was cancelled or stopped, unanswered items are `skipped`. Free.",
    security: [{ ApiKey: [] }],
    parameters: [
      idParam,
      { name: 'cursor', in: 'query', required: false, description: '`nextCursor` of the previous page; absent for the first page', schema: { type: 'string' } },
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: 'Items per page',
        schema: { type: 'integer', minimum: 1, maximum: PAGE_MAX, default: PAGE_DEFAULT },
      },
    ],
    responses: {
      200: {
        description: 'The batch',
        headers: { 'X-Request-Id': header('RequestId'), ...RATE_HEADERS },
        content: json(envelopeSchema(ref('schemas', 'BatchPage')), successExample(pageExample, 12)),
      },
      ...errors('BadRequest', 'Unauthorized', 'NotFound', 'TooManyRequests', 'InternalError', 'ServiceUnavailable'),
    },
  };
}

function cancelOperation(): JsonSchema {
  return {
    operationId: 'cancelBatch',
    tags: ['Batch'],
    summary: 'Cancel the items that have not started',
    description:
      'Items already running finish (and are charged if they succeed); the others are never run. The webhook, if any, is called with status `cancelled`. Free.',
    security: [{ ApiKey: [] }],
    parameters: [idParam],
    responses: {
      200: {
        description: 'Cancelled',
        headers: { 'X-Request-Id': header('RequestId'), ...RATE_HEADERS },
        content: json(
          envelopeSchema(ref('schemas', 'BatchInfo')),
          successExample({ ...info, status: 'cancelled', counts: { ...info.counts, pending: 0, skipped: 1 }, finishedAt: '2026-11-23T18:40:01.500Z' }, 9),
        ),
      },
      ...errors('BadRequest', 'Unauthorized', 'NotFound', 'Conflict', 'TooManyRequests', 'InternalError', 'ServiceUnavailable'),
    },
  };
}

export function batchPaths(): Record<string, JsonSchema> {
  return { '/batch': { post: createOperation() }, '/batch/{id}': { get: getOperation(), delete: cancelOperation() } };
}

export function batchSchemas(): Record<string, JsonSchema> {
  return {
    BatchRequest: jsonSchema(BatchRequestSchema, 'input'),
    BatchCreated: jsonSchema(BatchCreatedSchema, 'output'),
    BatchInfo: jsonSchema(BatchInfoSchema, 'output'),
    BatchPage: jsonSchema(BatchPageSchema, 'output'),
    BatchWebhookBody: jsonSchema(BatchWebhookBodySchema, 'output'),
  };
}

export function batchWebhooks(): Record<string, JsonSchema> {
  return {
    batchFinished: {
      post: {
        operationId: 'batchFinished',
        tags: ['Batch'],
        summary: 'A batch ended (done, cancelled or stopped_credits)',
        description: `POSTed once to the batch's \`webhook\` URL; retried with a doubling delay until a 2xx (WEBHOOK_MAX_ATTEMPTS). A retry after a lost answer can repeat a delivery: deduplicate by X-Enrich-Batch-Id. Verify X-Enrich-Signature: ${SIGNATURE} Reject timestamps older than a few minutes.`,
        security: [],
        parameters: [
          { name: 'X-Enrich-Signature', in: 'header', required: true, description: SIGNATURE, schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' } },
          { name: 'X-Enrich-Timestamp', in: 'header', required: true, description: 'Unix seconds when the delivery was signed', schema: { type: 'integer' } },
          { name: 'X-Enrich-Batch-Id', in: 'header', required: true, description: 'The batch id', schema: { type: 'string' } },
          {
            name: 'X-Enrich-Delivery-Attempt',
            in: 'header',
            required: true,
            description: '1 for the first delivery, then 2, 3, ...',
            schema: { type: 'integer', minimum: 1 },
          },
        ],
        requestBody: {
          required: true,
          content: json(ref('schemas', 'BatchWebhookBody'), {
            event: 'batch.finished',
            batch: {
              ...info,
              status: 'done',
              counts: { total: 3, succeeded: 2, failed: 1, pending: 0, skipped: 0 },
              creditsCharged: 2,
              finishedAt: '2026-11-23T18:40:03.000Z',
            },
          }),
        },
        responses: {
          200: { description: 'Any 2xx acknowledges the delivery' },
          400: { description: 'Anything else (or no answer within WEBHOOK_TIMEOUT_MS) is retried' },
        },
      },
    },
  };
}
