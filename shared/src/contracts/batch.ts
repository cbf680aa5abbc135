/**
 * The batch API's HTTP contract: POST /batch body, its 202 answer, and GET /batch/{id}. Items carry
 * the single endpoint's parameters as JSON values (numbers, booleans, strings); the edge validates each
 * with that endpoint's own query schema, so an item means exactly what the GET request would.
 */
import { z } from 'zod';
import { MAX_AGE_MAX_S, successEnvelope } from './http.ts';

export const BATCH_MAX_ITEMS = 10_000;
export const BATCH_ENDPOINTS = ['enrich', 'brand', 'company', 'classify', 'screenshot'] as const;
export const BatchEndpointSchema = z.enum(BATCH_ENDPOINTS);
export type BatchEndpoint = z.infer<typeof BatchEndpointSchema>;

export const MaxAgeSchema = z
  .number()
  .int()
  .min(0)
  .max(MAX_AGE_MAX_S)
  .describe(`Result-cache freshness in seconds (0 to ${MAX_AGE_MAX_S}): an answer at most this old may be reused.`);

const ItemValue = z.union([z.string(), z.number(), z.boolean()]);
/** One item: `url` plus that endpoint's parameters (see its GET operation), and an optional `maxAge`. */
export const BatchItemSchema = z.object({ url: z.string() }).catchall(ItemValue);

export const BatchRequestSchema = z.strictObject({
  endpoint: BatchEndpointSchema,
  items: z.array(BatchItemSchema).min(1).max(BATCH_MAX_ITEMS),
  maxAge: MaxAgeSchema.optional(),
  webhook: z.string().max(2048).optional().describe('http(s) URL called once when the batch ends (signed; see X-Enrich-Signature).'),
});
export type BatchRequest = z.infer<typeof BatchRequestSchema>;

export const BatchStatusSchema = z.enum(['queued', 'running', 'done', 'cancelled', 'stopped_credits']);
export type BatchStatus = z.infer<typeof BatchStatusSchema>;
export const ItemStateSchema = z.enum(['pending', 'succeeded', 'failed', 'skipped']);
export type ItemState = z.infer<typeof ItemStateSchema>;

export const BatchCreatedSchema = z.object({
  id: z.string(),
  status: BatchStatusSchema,
  statusUrl: z.string(),
  total: z.number().int().positive(),
});
export type BatchCreated = z.infer<typeof BatchCreatedSchema>;

export const BatchCountsSchema = z.object({
  total: z.number().int().nonnegative(),
  succeeded: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** Not answered yet; 0 once the batch has ended (unanswered items are then `skipped`). */
  pending: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
});

/** One item's answer: `data` as the single endpoint's, or `error` with the HTTP status it would have had. */
export const BatchItemResultSchema = z.object({
  index: z.number().int().nonnegative(),
  state: ItemStateSchema,
  url: z.string().optional(),
  status: z.number().int().optional(),
  data: z.unknown().optional(),
  error: z.string().optional(),
  requestId: z.uuid().optional(),
  credits: z.number().int().nonnegative().optional(),
  durationMs: z.number().int().nonnegative().optional(),
  finishedAt: z.iso.datetime().optional(),
});
export type BatchItemResult = z.infer<typeof BatchItemResultSchema>;

export const BatchWebhookStateSchema = z.object({
  url: z.string(),
  state: z.enum(['waiting', 'delivered', 'failed']),
  attempts: z.number().int().nonnegative(),
  lastError: z.string().optional(),
});

export const BatchInfoSchema = z.object({
  id: z.string(),
  endpoint: BatchEndpointSchema,
  status: BatchStatusSchema,
  counts: BatchCountsSchema,
  creditsCharged: z.number().int().nonnegative(),
  maxAge: z.number().int().nullable(),
  createdAt: z.iso.datetime(),
  startedAt: z.iso.datetime().nullable(),
  finishedAt: z.iso.datetime().nullable(),
  expiresAt: z.iso.datetime(),
  webhook: BatchWebhookStateSchema.nullable(),
});
export type BatchInfo = z.infer<typeof BatchInfoSchema>;

export const BatchPageSchema = BatchInfoSchema.extend({
  results: z.array(BatchItemResultSchema),
  /** Pass as `cursor` for the next page; null after the last item. */
  nextCursor: z.string().nullable(),
});
export type BatchPage = z.infer<typeof BatchPageSchema>;

export const BatchCreatedResponseSchema = successEnvelope(BatchCreatedSchema);
export const BatchPageResponseSchema = successEnvelope(BatchPageSchema);
export const BatchInfoResponseSchema = successEnvelope(BatchInfoSchema);

/** The webhook's body (POSTed once when the batch ends). */
export const BatchWebhookBodySchema = z.object({
  event: z.literal('batch.finished'),
  batch: BatchInfoSchema,
});
export type BatchWebhookBody = z.infer<typeof BatchWebhookBodySchema>;
