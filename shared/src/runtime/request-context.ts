/** The request id rides in the OpenTelemetry context, so log lines anywhere below a handler carry it. */
import { context, createContextKey, type Context } from '@opentelemetry/api';

const REQUEST_ID = createContextKey('enrich.request_id');

export function withRequestId(ctx: Context, requestId: string): Context {
  return ctx.setValue(REQUEST_ID, requestId);
}

export function currentRequestId(): string | undefined {
  const v = context.active().getValue(REQUEST_ID);
  return typeof v === 'string' ? v : undefined;
}
