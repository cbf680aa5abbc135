export * from './propagation.ts';
export * from './sdk.ts';
export { trace, context, metrics, SpanKind, SpanStatusCode, type Span, type Context } from '@opentelemetry/api';
