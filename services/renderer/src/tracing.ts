/**
 * Child spans of `render.page process` for each phase of a render, so a trace shows where a
 * request's time went (context, navigation, settle, collection, screenshot, upload, visuals).
 */
import { SpanStatusCode, trace, type Span } from '@opentelemetry/api';

const tracer = trace.getTracer('enrich.renderer');

export function inSpan<T>(name: string, fn: (span: Span) => Promise<T>, attributes: Record<string, string | number | boolean> = {}): Promise<T> {
  return tracer.startActiveSpan(`render.${name}`, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * Names the phases this job does not run (what its request did not ask for) on the job's span
 * (`render.page process`) as `render.skipped`, so a trace says why a phase is absent.
 */
export function markSkipped(phases: string[]): void {
  if (phases.length === 0) return;
  const span = trace.getActiveSpan();
  if (!span) return;
  // A job may skip phases at more than one point (elements and styles, then the visuals): the list grows.
  const all = [...(skippedOf.get(span) ?? []), ...phases];
  skippedOf.set(span, all);
  span.setAttribute('render.skipped', all.join(','));
}

const skippedOf = new WeakMap<Span, string[]>();
