/**
 * The HTTP contract of the edge: query parameters, response envelope and every `data` body of the
 * seed. The edge validates with these, tests check responses against them, and /openapi.json is
 * generated from them.
 */
import { z } from 'zod';
import { ColorsSchema, FontsSchema, ImagesSchema, LogosSchema, SocialLinksSchema } from './brand.ts';
import { ClassificationSchema } from './classify.ts';
import { CompanyDataSchema } from './company.ts';
import { ScreenshotFormatSchema } from './common.ts';

// ---- query parameters -------------------------------------------------------------------------

export const URL_MAX_CHARS = 2048;

/**
 * `true/false/1/0` (case-insensitive), as query strings carry them. The final pipe states the API's
 * type (a boolean), which is what /openapi.json documents; the spellings are the parser's leniency.
 */
export const QueryBoolean = z
  .enum(['true', 'false', '1', '0', 'TRUE', 'FALSE', 'True', 'False'])
  .transform((v) => v === '1' || v.toLowerCase() === 'true')
  .pipe(z.boolean());

const intInRange = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { message: `must be a whole number from ${min} to ${max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { message: `must be from ${min} to ${max}` })
        .max(max, { message: `must be from ${min} to ${max}` }),
    );

export const UrlParam = z
  .string({ message: 'is required' })
  .trim()
  .min(1, { message: 'is required' })
  .max(URL_MAX_CHARS, { message: `must be at most ${URL_MAX_CHARS} characters` });

const screenshotParams = {
  width: intInRange(320, 5000).default(1440),
  height: intInRange(320, 5000).default(900),
  format: ScreenshotFormatSchema.default('jpeg'),
  full_page: QueryBoolean.default(false),
};

const colorParams = {
  screenshotColors: intInRange(2, 12).optional(),
  css: QueryBoolean.default(false),
  html: QueryBoolean.default(false),
  javascript: QueryBoolean.default(false),
};

/** Seconds; the oldest cached answer the client accepts (0 = render now). Not part of the cache key. */
export const MAX_AGE_MAX_S = 30 * 86_400;
export const MAX_AGE_DEFAULT_S = 86_400;
const cacheParams = { maxAge: intInRange(0, MAX_AGE_MAX_S).default(MAX_AGE_DEFAULT_S) };

/** `/company` and `/enrich`: follow up to two same-site contact, imprint, terms/privacy or about pages when data is missing. */
const followParams = { follow_links: QueryBoolean.default(false) };

export const ScreenshotQuerySchema = z.strictObject({ url: UrlParam, ...screenshotParams, ...cacheParams });
export const BrandQuerySchema = z.strictObject({ url: UrlParam, ...colorParams, ...screenshotParams, ...cacheParams });
export const EnrichQuerySchema = z.strictObject({ url: UrlParam, ...colorParams, ...screenshotParams, ...followParams, ...cacheParams });
export const CompanyQuerySchema = z.strictObject({ url: UrlParam, ...colorParams, ...screenshotParams, ...followParams, ...cacheParams });
export const ClassifyQuerySchema = z.strictObject({ url: UrlParam, ...cacheParams });
export type ScreenshotQuery = z.infer<typeof ScreenshotQuerySchema>;
export type BrandQuery = z.infer<typeof BrandQuerySchema>;
export type EnrichQuery = z.infer<typeof EnrichQuerySchema>;
export type CompanyQuery = z.infer<typeof CompanyQuerySchema>;
export type ClassifyQuery = z.infer<typeof ClassifyQuerySchema>;

// ---- envelope ---------------------------------------------------------------------------------

export const MetaSchema = z.object({
  requestId: z.uuid(),
  durationMs: z.number().int().nonnegative(),
});
export type Meta = z.infer<typeof MetaSchema>;

export const successEnvelope = <T extends z.ZodType>(data: T) => z.strictObject({ success: z.literal(true), data, meta: MetaSchema });

export const ErrorEnvelopeSchema = z.strictObject({
  success: z.literal(false),
  error: z.string().min(1),
  meta: MetaSchema,
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

// ---- data bodies ------------------------------------------------------------------------------

const Site = { domain: z.string(), url: z.string() };

export const BrandResponseDataSchema = z.object({
  ...Site,
  colors: ColorsSchema,
  fonts: FontsSchema,
  logos: LogosSchema,
  images: ImagesSchema,
  social_links: SocialLinksSchema,
});
export type BrandResponseData = z.infer<typeof BrandResponseDataSchema>;

export const CompanyResponseDataSchema = z.object({ ...Site, ...CompanyDataSchema.shape });
export type CompanyResponseData = z.infer<typeof CompanyResponseDataSchema>;

export const EnrichDataSchema = BrandResponseDataSchema.extend({
  company: CompanyDataSchema,
  classification: ClassificationSchema,
});
export type EnrichData = z.infer<typeof EnrichDataSchema>;

export const ScreenshotDataSchema = z.object({
  url: z.string(),
  screenshot_url: z.string(),
  viewport: z.object({ width: z.number().int(), height: z.number().int() }),
  format: ScreenshotFormatSchema,
  full_page: z.boolean(),
  captured_at: z.iso.datetime({ precision: 3 }),
  /** Additive (docs/api.md): true when the page was taller than the capture's pixel budget and was cut; absent (older answers, examples) reads as false. */
  screenshot_clipped: z.boolean().default(false),
});
export type ScreenshotData = z.infer<typeof ScreenshotDataSchema>;

export const HealthDataSchema = z.object({ status: z.literal('ok'), uptimeSeconds: z.number().nonnegative() });
export const ReadyCheckSchema = z.object({ ok: z.boolean(), detail: z.string() });
export const ReadyDataSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({ nats: ReadyCheckSchema, store: ReadyCheckSchema, renderer: ReadyCheckSchema }),
});
export type ReadyData = z.infer<typeof ReadyDataSchema>;

export const EnrichResponseSchema = successEnvelope(EnrichDataSchema);
export const BrandResponseSchema = successEnvelope(BrandResponseDataSchema);
export const CompanyResponseSchema = successEnvelope(CompanyResponseDataSchema);
export const ClassifyResponseSchema = successEnvelope(ClassificationSchema);
export const ScreenshotResponseSchema = successEnvelope(ScreenshotDataSchema);
export const HealthResponseSchema = successEnvelope(HealthDataSchema);
/** /ready answers this envelope with 200 when ready; with 503 it answers an error envelope whose `error` names the failed dependencies. */
export const ReadyResponseSchema = successEnvelope(ReadyDataSchema);

/**
 * Headers of every successful data response that say where the answer came from (the result cache).
 * Names as sent; the OpenAPI document takes them from here.
 */
export const CacheResponseHeadersSchema = z.object({
  'X-Cache': z
    .enum(['HIT', 'MISS'])
    .describe('HIT: answered from the result cache (no render); MISS: produced for this request or for an identical one in flight'),
  Age: z.string().regex(/^\d+$/).describe('Seconds since the answer was produced (RFC 9111 Age); 0 for a fresh render'),
});
export type CacheResponseHeaders = z.infer<typeof CacheResponseHeadersSchema>;

/** Credits charged per successful request (seed: Limits / Credits). */
export const CREDIT_COSTS = { enrich: 3, brand: 2, company: 2, classify: 1, screenshot: 1 } as const;
export type PaidEndpoint = keyof typeof CREDIT_COSTS;
