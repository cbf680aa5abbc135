/**
 * Calls a subject with a deadline. The remaining budget travels in a header so every hop knows how
 * long it has; the reply is validated against the endpoint's contract; errors come back as the
 * ServiceError subclass the server threw. "No responders" and "no answer in time" are distinct.
 */
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import {
  headers as natsHeaders,
  NoRespondersError as NatsNoResponders,
  RequestError,
  TimeoutError as NatsTimeout,
  type NatsConnection,
} from '@nats-io/transport-node';
import type { z } from 'zod';
import { pingSubject, type Endpoint } from '../contracts/subjects.ts';
import { BadMessageError, DeadlineExceededError, NoRespondersError, ServiceError, UnavailableError, WireErrorSchema, fromWireError } from '../errors.ts';
import { injectTraceContext } from '../telemetry/propagation.ts';
import { decodeBody, encodeBody } from './codec.ts';
import { H } from './headers.ts';
import { summarizeIssues } from './serve.ts';

export interface RequestOptions {
  /** Epoch ms by which the answer must have arrived. */
  deadline: number;
  requestId: string;
}

export async function request<E extends Endpoint<z.ZodType, z.ZodType>>(
  nc: NatsConnection,
  endpoint: E,
  payload: z.input<E['request']>,
  opts: RequestOptions,
): Promise<z.infer<E['reply']>> {
  const tracer = trace.getTracer('enrich.nats');
  const span = tracer.startSpan(`${endpoint.subject} request`, {
    kind: SpanKind.CLIENT,
    attributes: {
      'messaging.system': 'nats',
      'messaging.destination.name': endpoint.subject,
      'messaging.operation.type': 'send',
      'enrich.request_id': opts.requestId,
    },
  });
  const ctx = trace.setSpan(context.active(), span);
  try {
    return await context.with(ctx, async () => {
      const hdrs = natsHeaders();
      hdrs.set(H.requestId, opts.requestId);
      injectTraceContext(hdrs, ctx);
      const enc = await encodeBody(nc, payload, hdrs);
      // Measured after encoding: compression and a claim-check upload spend the same budget.
      const remaining = Math.floor(opts.deadline - Date.now());
      if (remaining <= 0) throw new DeadlineExceededError(`no budget left to call ${endpoint.subject}`);
      enc.headers.set(H.deadlineMs, String(remaining));
      let msg: Awaited<ReturnType<NatsConnection['request']>>;
      try {
        msg = await nc.request(endpoint.subject, enc.body, { timeout: remaining, headers: enc.headers });
      } catch (err) {
        throw mapRequestError(err, endpoint.subject, remaining);
      }
      const body = await decodeBody(nc, msg.data, msg.headers);
      if (msg.headers?.get(H.errorCode)) {
        const wire = WireErrorSchema.safeParse(body);
        throw wire.success ? fromWireError(wire.data) : new BadMessageError(`${endpoint.subject} answered an unreadable error`);
      }
      const parsed = endpoint.reply.safeParse(body);
      if (!parsed.success) throw new BadMessageError(`${endpoint.subject} answered outside its contract: ${summarizeIssues(parsed.error)}`);
      return parsed.data as z.infer<E['reply']>;
    });
  } catch (err) {
    if (err instanceof ServiceError) {
      span.setAttribute('enrich.error_code', err.code);
    }
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
    throw err;
  } finally {
    span.end();
  }
}

function mapRequestError(err: unknown, subject: string, timeoutMs: number): ServiceError {
  const cause = err instanceof Error ? err.cause : undefined;
  if (err instanceof NatsNoResponders || cause instanceof NatsNoResponders || (err instanceof RequestError && err.isNoResponders())) {
    return new NoRespondersError(`no instance of ${subject} is running`, { cause: err });
  }
  if (err instanceof NatsTimeout || cause instanceof NatsTimeout) {
    return new DeadlineExceededError(`${subject} did not answer within ${timeoutMs} ms`, { cause: err });
  }
  return new UnavailableError(`NATS request to ${subject} failed: ${(err as Error)?.message ?? String(err)}`, { cause: err });
}

/** Whether at least one instance serving the endpoint answers its ping within `timeoutMs`. */
export async function ping(nc: NatsConnection, endpoint: Endpoint<z.ZodType, z.ZodType>, timeoutMs = 1000): Promise<{ ok: boolean; detail: string }> {
  try {
    const msg = await nc.request(pingSubject(endpoint.subject), '', { timeout: timeoutMs });
    const info = JSON.parse(msg.string()) as { instance?: string };
    return { ok: true, detail: `instance ${info.instance ?? '?'} answered` };
  } catch (err) {
    const mapped = mapRequestError(err, endpoint.subject, timeoutMs);
    return { ok: false, detail: mapped.message };
  }
}
