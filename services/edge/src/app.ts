/**
 * Builds the edge's fastify instance from its dependencies (config, NATS connection, store, logger),
 * without listening: tests call buildApp() and app.inject(); main.ts listens. Every response,
 * errors included, is the seed's envelope with meta.requestId (also X-Request-Id) and durationMs.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { registerAssets } from './assets.ts';
import { KeyCache } from './auth/key-cache.ts';
import { InteractiveLoad, trackInteractive } from './batch/interactive.ts';
import { registerBatchRoutes } from './batch/routes.ts';
import { startBatchService } from './batch/service.ts';
import { DEFAULT_KEY_CACHE_MS, DEFAULT_USAGE_FLUSH_MS, type TrustProxy } from './config.ts';
import type { EdgeDeps, EdgeInput, EdgeRequestState } from './deps.ts';
import { sendError } from './envelope.ts';
import { EDGE_STATUS, EdgeHttpError, toHttpFailure } from './errors.ts';
import { registerIdempotencyHook } from './idempotency.ts';
import { edgeMetrics } from './metrics.ts';
import { parseRawQuery } from './params.ts';
import { checkIpLimit } from './rate-limit/limits.ts';
import { LocalWindows } from './rate-limit/local-windows.ts';
import { registerDocs } from './routes/docs.ts';
import { PAID_ROUTES, registerDataRoutes } from './routes/endpoints.ts';
import { registerProbes } from './routes/probes.ts';
import { registerTracing } from './tracing.ts';
import { UsageLog } from './usage-log.ts';

const RATE_LIMIT_EXEMPT = new Set(['/health', '/ready']);

/**
 * A hop count or the proxies' addresses, never `true` (every hop): see config.ts. A count of n trusts
 * the n nearest hops (proxy-addr's rule for numbers, which fastify's types do not list).
 */
function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (Array.isArray(trust)) return trust;
  return trust === 0 ? false : (_address: string, hop: number) => hop < trust;
}

export async function buildApp(input: EdgeInput): Promise<FastifyInstance> {
  const deps: EdgeDeps = {
    ...input,
    windows: input.windows ?? new LocalWindows(input.store),
    keys: input.keys ?? new KeyCache(input.store, { maxAgeMs: input.config.keyCacheMs ?? DEFAULT_KEY_CACHE_MS }),
    usage: new UsageLog(input.store, {
      flushMs: input.config.usageFlushMs ?? DEFAULT_USAGE_FLUSH_MS,
      onError: (err, entries) => input.log.warn({ err, entries }, 'usage log write failed'),
    }),
  };
  const app = Fastify({
    // fastify types its logger against its own copy of pino's types; the instance is a real pino logger.
    loggerInstance: deps.log as unknown as FastifyBaseLogger,
    // One 'request done' line per request is written by our onResponse hook, with the requestId.
    logController: new LogController({ disableRequestLogging: true }),
    // Never trust a client-chosen id: meta.requestId is always ours.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: fastifyTrustProxy(deps.config.trustProxy),
    routerOptions: { querystringParser: parseRawQuery },
    return503OnClosing: true,
    // HEAD on a paid endpoint would do (and charge for) the work without returning it: GET only.
    exposeHeadRoutes: false,
    // A URL fastify cannot even route (bad percent-encoding) still gets the envelope.
    frameworkErrors: (err, request, reply) => {
      reply.header('x-request-id', request.id);
      return sendError(request, reply, EDGE_STATUS.MALFORMED_REQUEST, `Malformed request URL: ${err.message}`);
    },
  });

  app.decorateRequest('edge', null as unknown as EdgeRequestState);
  registerTracing(app);

  const methodsByPath = trackRouteMethods(app);
  registerRequestHooks(app, deps);
  registerFailureHandlers(app, methodsByPath);

  registerIdempotencyHook(app, deps.store);
  registerProbes(app, deps);
  registerDataRoutes(app, deps);
  // POST/GET/DELETE /batch and (BATCH_WORKER) the worker that runs batch items; stopped with the app.
  const load = new InteractiveLoad();
  trackInteractive(
    app,
    load,
    PAID_ROUTES.map((r) => r.path),
  );
  const batch = await startBatchService(deps, load);
  app.addHook('onClose', async () => batch.close());
  registerBatchRoutes(app, deps, batch);
  registerAssets(app, deps.config.screenshotDir);
  // After the requests in flight have answered (and added their entries), before the store closes.
  app.addHook('onClose', async () => deps.usage.flush());

  await registerDocs(app, deps.config);

  return app;
}

/** Which methods each path answers, so a wrong method gets 405 with Allow instead of 404. */
function trackRouteMethods(app: FastifyInstance): Map<string, Set<string>> {
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const set = methodsByPath.get(route.url) ?? new Set<string>();
    for (const m of methods) set.add(m);
    methodsByPath.set(route.url, set);
  });
  return methodsByPath;
}

/** Per request: the id header and the per-IP window first; after it, metrics, the log line and the usage record. */
function registerRequestHooks(app: FastifyInstance, deps: EdgeDeps): void {
  app.addHook('onRequest', async (request, reply) => {
    request.edge = { startedAt: Date.now(), endpoint: undefined, keyId: undefined, credits: 0 };
    reply.header('x-request-id', request.id);
    if (RATE_LIMIT_EXEMPT.has(request.routeOptions.url ?? '')) return;
    try {
      await checkIpLimit(deps.windows, request.ip, deps.config.ipRateLimitPerMin, deps.config.ipv6Prefix, deps.now?.());
    } catch (err) {
      if (err instanceof EdgeHttpError && err.status === EDGE_STATUS.RATE_LIMITED) edgeMetrics().rateLimitRejections.add(1, { scope: 'ip' });
      throw err;
    }
  });

  app.addHook('onResponse', async (request, reply) => {
    const endpoint = request.edge?.endpoint ?? request.routeOptions.url ?? 'unmatched';
    const attrs = { endpoint, status: reply.statusCode };
    edgeMetrics().requests.add(1, attrs);
    if (reply.statusCode >= 400) edgeMetrics().errors.add(1, attrs);
    edgeMetrics().duration.record(reply.elapsedTime, { endpoint });
    request.log.info(
      {
        requestId: request.id,
        method: request.method,
        path: request.routeOptions.url,
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime),
        keyId: request.edge?.keyId,
      },
      'request done',
    );
    const keyId = request.edge?.keyId;
    if (keyId && request.edge.endpoint) {
      deps.usage.add({
        requestId: request.id,
        keyId,
        endpoint: request.edge.endpoint,
        status: reply.statusCode,
        credits: request.edge.credits,
        durationMs: Math.round(reply.elapsedTime),
        timestamp: new Date().toISOString(),
      });
    }
  });
}

/** Every failure as the envelope: errors through errors.ts, unknown routes as 404 or 405. */
function registerFailureHandlers(app: FastifyInstance, methodsByPath: Map<string, Set<string>>): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const failure = toHttpFailure(err, request.id);
    if (failure.hidden) request.log.error({ err, requestId: request.id }, 'request failed with an internal error');
    else if (failure.status >= 500) {
      const cause = (err as { cause?: unknown }).cause;
      request.log.warn(
        {
          err: { message: (err as Error).message, code: (err as { code?: string }).code, ...(cause instanceof Error ? { cause: cause.message } : {}) },
          requestId: request.id,
        },
        'request failed',
      );
    }
    return sendError(request, reply, failure.status, failure.message, failure.headers);
  });

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = methodsByPath.get(path) ?? (path.startsWith('/assets/') ? methodsByPath.get('/assets/*') : undefined);
    if (allowed) {
      const allow = [...allowed].sort().join(', ');
      return sendError(request, reply, EDGE_STATUS.METHOD_NOT_ALLOWED, `Method ${request.method} is not allowed on ${path}; allowed: ${allow}`, { allow });
    }
    return sendError(
      request,
      reply,
      EDGE_STATUS.NOT_FOUND,
      `No route ${request.method} ${path.slice(0, 200)}; endpoints: GET /enrich, /brand, /company, /classify, /screenshot, /health, /ready, /openapi.json, /docs; POST /batch, GET and DELETE /batch/{id}`,
    );
  });
}
