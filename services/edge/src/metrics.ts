/** RED metrics of the edge plus credits and rate-limit rejections; exporters are wired by the runtime. */
import { metrics } from '@opentelemetry/api';

const meter = metrics.getMeter('edge');

export const edgeMetrics = {
  requests: meter.createCounter('edge.requests', { description: 'HTTP requests by endpoint and status' }),
  errors: meter.createCounter('edge.request.errors', { description: 'HTTP responses with status >= 400 by endpoint and status' }),
  duration: meter.createHistogram('edge.request.duration', { unit: 'ms', description: 'HTTP request duration by endpoint' }),
  creditsCharged: meter.createCounter('edge.credits.charged', { description: 'credits charged on successful requests, by endpoint' }),
  creditsRefunded: meter.createCounter('edge.credits.refunded', { description: 'credits refunded (failed requests and expired reservations)' }),
  rateLimitRejections: meter.createCounter('edge.ratelimit.rejections', { description: 'requests rejected with 429, by scope (ip or key)' }),
};
