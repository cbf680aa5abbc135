/** RED metrics of the edge plus credits and rate-limit rejections; exporters are wired by the runtime. */
import { metrics } from '@opentelemetry/api';

function createInstruments() {
  const meter = metrics.getMeter('edge');
  return {
    requests: meter.createCounter('edge.requests', { description: 'HTTP requests by endpoint and status' }),
    errors: meter.createCounter('edge.request.errors', { description: 'HTTP responses with status >= 400 by endpoint and status' }),
    duration: meter.createHistogram('edge.request.duration', { unit: 'ms', description: 'HTTP request duration by endpoint' }),
    creditsCharged: meter.createCounter('edge.credits.charged', { description: 'credits charged on successful requests, by endpoint' }),
    creditsRefunded: meter.createCounter('edge.credits.refunded', { description: 'credits refunded (failed requests and expired reservations)' }),
    rateLimitRejections: meter.createCounter('edge.ratelimit.rejections', { description: 'requests rejected with 429, by scope (ip or key)' }),
  };
}

let instruments: ReturnType<typeof createInstruments> | undefined;

/**
 * Created on first use, not at import: the metrics API has no proxy provider, so instruments made
 * before the runtime registers the SDK's MeterProvider would stay no-ops forever.
 */
export function edgeMetrics(): ReturnType<typeof createInstruments> {
  instruments ??= createInstruments();
  return instruments;
}
