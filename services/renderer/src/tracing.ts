/**
 * Child spans of `render.page process` for each phase of a render, so a trace shows where a
 * request's time went (context, navigation, settle, collection, screenshot, upload, visuals).
 */
import { SpanStatusCode, trace } from '@opentelemetry/api';

const tracer = trace.getTracer('enrich.renderer');

export function inSpan<T>(name: string, fn: () => Promise<T>, attributes: Record<string, string | number | boolean> = {}): Promise<T> {
  return tracer.startActiveSpan(`render.${name}`, { attributes }, async (span) => {
    try {
      return await fn();
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
}
