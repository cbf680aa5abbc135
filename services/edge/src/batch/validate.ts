/**
 * POST /batch validation, all of it before anything is written: the body's shape, then every item
 * with its endpoint's own query schema (the same parser and messages as the GET endpoint), then the
 * webhook URL's scheme and addresses. Problems are collected per item ("items[3].width: ...") and
 * answered together as one 400.
 */
import { BATCH_MAX_ITEMS, BatchRequestSchema, MAX_AGE_MAX_S, type BatchEndpoint } from '@enrich/shared/contracts';
import { InvalidParameterError, ServiceError } from '@enrich/shared/errors';
import { isForbiddenTarget, parseAllowList, resolveAll, type Resolve } from '@enrich/shared/net';
import { normalizeTargetUrl, parseQuery } from '../params.ts';
import { PAID_ROUTES } from '../routes/endpoints.ts';
import type { PaidRouteSpec } from '../routes/paid.ts';
import type { z } from 'zod';
import type { ItemMessage } from './queue.ts';

/** Item problems listed in the 400 before "... and N more". */
const LISTED_PROBLEMS = 50;

export interface ValidBatch {
  endpoint: BatchEndpoint;
  items: Array<Omit<ItemMessage, 'batchId'>>;
  maxAge: number | null;
  webhook: string | null;
}

export function routeOf(endpoint: BatchEndpoint): PaidRouteSpec<z.ZodObject, z.ZodType> {
  const route: PaidRouteSpec<z.ZodObject, z.ZodType> | undefined = PAID_ROUTES.find((r) => r.endpoint === endpoint);
  if (!route) throw new Error(`no route for ${endpoint}`);
  return route;
}

function bodyProblem(body: unknown): string | null {
  const parsed = BatchRequestSchema.safeParse(body);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  const where =
    issue.path.length > 0
      ? issue.path
          .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
          .join('')
          .replace(/^\./, '')
      : 'body';
  const hints: Record<string, string> = {
    endpoint: 'one of enrich, brand, company, classify, screenshot',
    items: `an array of 1 to ${BATCH_MAX_ITEMS} objects, each with a "url" and that endpoint's parameters`,
    maxAge: `a whole number of seconds from 0 to ${MAX_AGE_MAX_S}`,
    webhook: 'an http:// or https:// URL',
  };
  const top = String(issue.path[0] ?? '');
  return `Invalid batch: ${where}: ${issue.message}${hints[top] ? `; expected ${hints[top]}` : ''}`;
}

/**
 * One item -> its message, or the problem in words. The batch's maxAge is merged into the item's
 * parameters (the item's own wins), so the endpoint's schema validates it and the item uses the
 * result cache as the single request would.
 */
function checkItem(
  endpoint: BatchEndpoint,
  item: Record<string, string | number | boolean>,
  maxAge: number | null,
): Omit<ItemMessage, 'batchId' | 'index'> | string {
  const merged = maxAge === null ? item : { maxAge, ...item };
  const params = Object.fromEntries(Object.entries(merged).map(([k, v]) => [k, String(v)]));
  try {
    const query = parseQuery(routeOf(endpoint).query, params) as { url: string };
    normalizeTargetUrl(query.url);
  } catch (err) {
    if (err instanceof ServiceError) return err.message.replace(/query parameters?/g, (m) => m.replace('query ', ''));
    throw err;
  }
  return { params };
}

/** Throws one InvalidParameterError (400) naming every problem; answers the batch ready to enqueue. */
export function validateBatch(body: unknown): ValidBatch {
  const problem = bodyProblem(body);
  if (problem) throw new InvalidParameterError(problem);
  const req = BatchRequestSchema.parse(body);
  const maxAge = req.maxAge ?? null;
  const items: ValidBatch['items'] = [];
  const problems: string[] = [];
  req.items.forEach((item, index) => {
    const checked = checkItem(req.endpoint, item, maxAge);
    if (typeof checked === 'string') problems.push(`items[${index}]: ${checked}`);
    else items.push({ index, ...checked });
  });
  if (problems.length > 0) {
    const more = problems.length > LISTED_PROBLEMS ? `; ... and ${problems.length - LISTED_PROBLEMS} more` : '';
    throw new InvalidParameterError(
      `Invalid batch: ${problems.length} of ${req.items.length} items are invalid (nothing was queued): ${problems.slice(0, LISTED_PROBLEMS).join('; ')}${more}`,
    );
  }
  return { endpoint: req.endpoint, items, maxAge, webhook: req.webhook ?? null };
}

/** The webhook URL: http(s), no credentials, and no address that is private (unless allow-listed). */
export async function checkWebhookUrl(url: string, opts: { allowPrivateTargets: string[]; resolve?: Resolve }): Promise<string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidParameterError(`Invalid batch: webhook: ${JSON.stringify(url.slice(0, 200))} is not a URL; expected an http:// or https:// URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new InvalidParameterError(`Invalid batch: webhook: scheme "${parsed.protocol}" is not allowed; only http:// and https:// URLs are called`);
  }
  const verdict = await isForbiddenTarget(parsed.href, { resolve: opts.resolve ?? resolveAll, allow: parseAllowList(opts.allowPrivateTargets.join(',')) });
  if (!verdict.ok) throw new InvalidParameterError(`Invalid batch: webhook ${parsed.href} is refused: ${verdict.reason}`);
  return parsed.href;
}
