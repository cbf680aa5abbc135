/**
 * Serves one subject in its queue group. Every message is handled by an async-safe wrapper (nats.js
 * only catches synchronous throws), validated against the endpoint's contract on the way in and on
 * the way out, traced as a SERVER span continuing the caller's trace, and answered with either the
 * reply or a typed error envelope. `stop()` stops intake and waits for in-flight work.
 */
import { SpanKind, SpanStatusCode, context, metrics, trace, type Span } from '@opentelemetry/api';
import { headers as natsHeaders, type Msg, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { pingSubject, type Endpoint } from '../contracts/subjects.ts';
import { BadMessageError, DeadlineExceededError, toServiceError, type ServiceError } from '../errors.ts';
import { extractTraceContext } from '../telemetry/propagation.ts';
import { withRequestId } from '../runtime/request-context.ts';
import { decodeBody, encodeBody } from './codec.ts';
import { H } from './headers.ts';

/** Budget assumed when a caller sent no deadline. */
const DEFAULT_BUDGET_MS = 30_000;
/** Kept back from the caller's budget so our answer (even a timeout error) reaches it before it gives up. */
const REPLY_MARGIN_MS = 150;

export interface HandlerContext {
  requestId: string;
  /** Epoch ms by which the reply must be sent. */
  deadline: number;
  /** Aborts at the deadline. */
  signal: AbortSignal;
  log: Logger;
}

export type Handler<E extends Endpoint<z.ZodType, z.ZodType>> = (req: z.infer<E['request']>, ctx: HandlerContext) => Promise<z.infer<E['reply']>>;

export interface Served {
  subject: string;
  inFlight(): number;
  /** Stops intake, waits for in-flight messages to be answered. */
  stop(): Promise<void>;
}

export interface ServeOptions {
  log: Logger;
  /** Instance name reported on `<subject>.ping`. */
  instance?: string;
}

/**
 * Decodes and validates the request, runs the handler, validates its reply and answers: the reply,
 * or the error envelope (recorded on the span). Returns the outcome; throws only when no answer could be sent.
 */
async function handleMessage<E extends Endpoint<z.ZodType, z.ZodType>>(
  nc: NatsConnection,
  endpoint: E,
  handler: Handler<E>,
  msg: Msg,
  ctx: HandlerContext,
  span: Span,
): Promise<string> {
  let reply: unknown;
  try {
    if (ctx.deadline <= Date.now()) throw new DeadlineExceededError(`${endpoint.subject}: the request arrived with no budget left`);
    const raw = await decodeBody(nc, msg.data, msg.headers);
    const parsed = endpoint.request.safeParse(raw);
    if (!parsed.success) {
      throw new BadMessageError(`${endpoint.subject}: request does not match its contract: ${summarizeIssues(parsed.error)}`);
    }
    const result = await handler(parsed.data as z.infer<E['request']>, ctx);
    const checked = endpoint.reply.safeParse(result);
    if (!checked.success) {
      throw new BadMessageError(`${endpoint.subject}: reply does not match its contract: ${summarizeIssues(checked.error)}`);
    }
    reply = checked.data;
  } catch (err) {
    const se: ServiceError = toServiceError(err);
    span.recordException(se);
    span.setStatus({ code: SpanStatusCode.ERROR, message: se.message });
    span.setAttribute('enrich.error_code', se.code);
    if (se.code === 'INTERNAL' || se.code === 'BAD_MESSAGE') ctx.log.error({ err }, 'request failed');
    else ctx.log.info({ code: se.code, message: se.message }, 'request refused');
    const hdrs = natsHeaders();
    hdrs.set(H.errorCode, se.code);
    const enc = await encodeBody(nc, se.toWire(), hdrs);
    msg.respond(enc.body, { headers: enc.headers });
    return se.code;
  }
  const enc = await encodeBody(nc, reply);
  msg.respond(enc.body, { headers: enc.headers });
  return 'ok';
}

export function serve<E extends Endpoint<z.ZodType, z.ZodType>>(nc: NatsConnection, endpoint: E, handler: Handler<E>, opts: ServeOptions): Served {
  const tracer = trace.getTracer('enrich.nats');
  const meter = metrics.getMeter('enrich.nats');
  const handled = meter.createHistogram('enrich.nats.handler.duration', { unit: 'ms', description: 'time to answer a NATS request, by subject and outcome' });
  const inFlight = new Set<Promise<void>>();
  const log = opts.log.child({ subject: endpoint.subject });

  async function answer(msg: Msg): Promise<void> {
    const started = Date.now();
    const remaining = Number(msg.headers?.get(H.deadlineMs) || DEFAULT_BUDGET_MS);
    const deadline = started + Math.max(0, (Number.isFinite(remaining) ? remaining : DEFAULT_BUDGET_MS) - REPLY_MARGIN_MS);
    const requestId = msg.headers?.get(H.requestId) || 'unknown';
    const parent = extractTraceContext(msg.headers);
    const span = tracer.startSpan(
      `${endpoint.subject} process`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'messaging.system': 'nats',
          'messaging.destination.name': endpoint.subject,
          'messaging.operation.type': 'process',
          'enrich.request_id': requestId,
        },
      },
      parent,
    );
    const ctx = withRequestId(trace.setSpan(parent, span), requestId);
    const reqLog = log.child({ requestId });
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new DeadlineExceededError(`${endpoint.subject}: budget exhausted`)), Math.max(0, deadline - Date.now()));
    let outcome = 'ok';
    try {
      outcome = await context.with(ctx, () => handleMessage(nc, endpoint, handler, msg, { requestId, deadline, signal: abort.signal, log: reqLog }, span));
    } catch (err) {
      // Only reached when even the error reply could not be sent (connection closing).
      outcome = 'REPLY_FAILED';
      reqLog.warn({ err }, 'could not send the reply');
    } finally {
      clearTimeout(timer);
      span.end();
      handled.record(Date.now() - started, { subject: endpoint.subject, outcome });
    }
  }

  const sub: Subscription = nc.subscribe(endpoint.subject, {
    queue: endpoint.queue,
    callback: (err, msg) => {
      if (err) {
        log.error({ err }, 'subscription error');
        return;
      }
      const p = answer(msg).catch((e: unknown) => log.error({ err: e }, 'unexpected handler failure'));
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    },
  });

  // In the endpoint's queue group: a readiness ping reaches ONE instance, not a scatter to all of them.
  const ping = nc.subscribe(pingSubject(endpoint.subject), {
    queue: endpoint.queue,
    callback: (err, msg) => {
      if (err) return;
      msg.respond(JSON.stringify({ subject: endpoint.subject, instance: opts.instance ?? `${process.pid}`, inFlight: inFlight.size }));
    },
  });

  return {
    subject: endpoint.subject,
    inFlight: () => inFlight.size,
    async stop() {
      ping.unsubscribe();
      if (!sub.isClosed()) await sub.drain().catch(() => undefined);
      await Promise.allSettled([...inFlight]);
    },
  };
}

export function summarizeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}
