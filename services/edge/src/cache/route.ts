/**
 * The paid route's one call into the cache: run the endpoint's work (validated against its
 * contract) through the result cache when there is one, and the headers that say how it went:
 * `X-Cache: HIT|MISS` and a standard `Age` (seconds since the answer was produced).
 */
import { metrics, type Counter } from '@opentelemetry/api';
import type { z } from 'zod';
import { BadMessageError } from '@enrich/shared/errors';
import type { Budget } from '../orchestrate.ts';
import type { CacheAnswer, ResultCache } from './cache.ts';

export interface CachedRunSpec<Q extends z.ZodObject, D extends z.ZodType> {
  path: string;
  endpoint: string;
  data: D;
  run(budget: Budget, url: string, query: z.infer<Q>): Promise<z.infer<D>>;
}

export async function answerThroughCache<Q extends z.ZodObject, D extends z.ZodType>(
  cache: ResultCache | null | undefined,
  spec: CachedRunSpec<Q, D>,
  // Only the request's logger is used, so a batch item (no FastifyRequest) passes `{ log }` (routes/paid.ts).
  r: { request: { log: { error(obj: object, msg: string): void } }; url: string; query: z.infer<Q>; budget: Budget; startedAt: number },
): Promise<CacheAnswer<z.infer<D>>> {
  const produce = async (): Promise<z.infer<D>> => {
    const checked = spec.data.safeParse(await spec.run(r.budget, r.url, r.query));
    if (checked.success) return checked.data;
    r.request.log.error({ issues: checked.error.issues.slice(0, 5) }, `${spec.path} answer does not match its contract`);
    throw new BadMessageError(`${spec.path} answer does not match its contract`);
  };
  if (!cache) return { data: await produce(), status: 'MISS', ageS: 0 };
  const params = r.query as Record<string, unknown>;
  return cache.through({
    endpoint: spec.endpoint,
    url: r.url,
    params,
    maxAgeS: typeof params.maxAge === 'number' ? params.maxAge : 0,
    startedAt: r.startedAt,
    deadline: r.budget.deadline,
    parse: (data) => {
      const checked = spec.data.safeParse(data);
      return checked.success ? checked.data : null;
    },
    produce,
  });
}

let answers: Counter | undefined;

/** `edge.cache.answers{endpoint, cache=HIT|MISS}`: successful answers by where they came from (created on first use, as edgeMetrics). */
export function countCacheAnswer(endpoint: string, answer: CacheAnswer<unknown>): void {
  answers ??= metrics.getMeter('edge').createCounter('edge.cache.answers', { description: 'successful data answers by endpoint and X-Cache (HIT or MISS)' });
  answers.add(1, { endpoint, cache: answer.status });
}

export function cacheHeaders(answer: CacheAnswer<unknown>): Record<string, string> {
  return { 'x-cache': answer.status, age: String(answer.ageS) };
}
