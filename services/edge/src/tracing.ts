/**
 * One SERVER span per HTTP request, continuing a client's W3C trace context when it sends one.
 * The hook is callback-style on purpose: fastify runs the rest of the request lifecycle inside
 * `done()`, so running `done` inside `context.with` makes the route handler, and every NATS request
 * it sends, children of this span. That is what turns one /enrich into one trace across services.
 */
import { SpanKind, SpanStatusCode, context, propagation, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { withRequestId } from '@enrich/shared/runtime';

declare module 'fastify' {
  interface FastifyRequest {
    span: Span | undefined;
  }
}

export function registerTracing(app: FastifyInstance): void {
  const tracer = trace.getTracer('enrich.edge');
  app.decorateRequest('span', undefined);

  app.addHook('onRequest', (request, _reply, done) => {
    const parent = propagation.extract(context.active(), request.headers);
    const route = request.routeOptions.url ?? 'unmatched';
    const span = tracer.startSpan(
      `${request.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'http.route': route,
          'url.path': request.url.split('?')[0] ?? '/',
          'client.address': request.ip,
          'enrich.request_id': request.id,
        },
      },
      parent,
    );
    request.span = span;
    context.with(withRequestId(trace.setSpan(parent, span), request.id), done);
  });

  app.addHook('onResponse', async (request, reply) => {
    const span = request.span;
    if (!span) return;
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (request.edge?.keyId) span.setAttribute('enrich.key_id', request.edge.keyId);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: `HTTP ${reply.statusCode}` });
    span.end();
  });

  // A client that hangs up early still closes its span.
  app.addHook('onRequestAbort', async (request) => {
    request.span?.setAttribute('enrich.aborted', true);
    request.span?.end();
  });
}
