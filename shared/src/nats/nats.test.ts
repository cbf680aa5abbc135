import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Endpoint } from '../contracts/subjects.ts';
import { BadMessageError, DeadlineExceededError, NoRespondersError, UrlForbiddenError } from '../errors.ts';
import { createLogger } from '../runtime/logger.ts';
import { startTestTelemetry } from '../telemetry/sdk.ts';
import { connectNats } from './connect.ts';
import { request, ping } from './request.ts';
import { serve, type HandlerContext } from './serve.ts';

const telemetry = startTestTelemetry('nats-test');
const log = createLogger('nats-test', 'silent');

const EchoReq = z.object({ text: z.string(), sleepMs: z.number().default(0), fail: z.string().optional() });
const EchoRep = z.object({ text: z.string(), length: z.number(), deadlineInMs: z.number(), requestId: z.string() });

function echoEndpoint(): Endpoint<typeof EchoReq, typeof EchoRep> {
  const subject = `test.echo.${randomUUID().slice(0, 8)}`;
  return { subject, queue: 'echo', request: EchoReq, reply: EchoRep };
}

async function echo(req: z.infer<typeof EchoReq>, ctx: HandlerContext) {
  if (req.fail === 'forbidden') throw new UrlForbiddenError('http://10.0.0.1/ resolves to a private address');
  if (req.fail === 'crash') throw new TypeError('boom');
  if (req.fail === 'bad-reply') return { text: 1 } as unknown as z.infer<typeof EchoRep>;
  if (req.sleepMs) await new Promise((r) => setTimeout(r, req.sleepMs));
  return { text: req.text, length: req.text.length, deadlineInMs: ctx.deadline - Date.now(), requestId: ctx.requestId };
}

let nc: NatsConnection;
beforeAll(async () => {
  nc = await connectNats({ url: inject('natsUrl'), name: 'nats-test' });
});
afterAll(async () => {
  await nc?.drain();
});

const soon = (ms = 5000) => Date.now() + ms;

describe('serve + request', () => {
  it('round-trips a request, carrying the request id and the remaining budget', async () => {
    const ep = echoEndpoint();
    const served = serve(nc, ep, echo, { log });
    const requestId = randomUUID();
    const rep = await request(nc, ep, { text: 'hello' }, { deadline: soon(5000), requestId });
    expect(rep.text).toBe('hello');
    expect(rep.requestId).toBe(requestId);
    // The server keeps a small margin for the reply; it never sees more budget than the caller gave.
    expect(rep.deadlineInMs).toBeLessThanOrEqual(5000);
    expect(rep.deadlineInMs).toBeGreaterThan(3000);
    await served.stop();
  });

  it('rebuilds the server error class on the caller side', async () => {
    const ep = echoEndpoint();
    const served = serve(nc, ep, echo, { log });
    const err = await request(nc, ep, { text: 'x', fail: 'forbidden' }, { deadline: soon(), requestId: randomUUID() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UrlForbiddenError);
    expect((err as UrlForbiddenError).code).toBe('URL_FORBIDDEN');
    expect((err as Error).message).toContain('private address');
    const crash = await request(nc, ep, { text: 'x', fail: 'crash' }, { deadline: soon(), requestId: randomUUID() }).catch((e: unknown) => e);
    expect((crash as { code: string }).code).toBe('INTERNAL');
    await served.stop();
  });

  it('tells "no responders" apart from "no answer in time"', async () => {
    const ep = echoEndpoint();
    const none = await request(nc, ep, { text: 'x' }, { deadline: soon(), requestId: randomUUID() }).catch((e: unknown) => e);
    expect(none).toBeInstanceOf(NoRespondersError);
    expect((none as NoRespondersError).retryable).toBe(true);

    const served = serve(nc, ep, echo, { log });
    const started = Date.now();
    const slow = await request(nc, ep, { text: 'x', sleepMs: 1500 }, { deadline: soon(400), requestId: randomUUID() }).catch((e: unknown) => e);
    expect(slow).toBeInstanceOf(DeadlineExceededError);
    expect(Date.now() - started).toBeLessThan(2500);
    await served.stop();
  });

  it('refuses a call whose budget is already spent, without sending it', async () => {
    const ep = echoEndpoint();
    const err = await request(nc, ep, { text: 'x' }, { deadline: Date.now() - 1, requestId: randomUUID() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeadlineExceededError);
  });

  it('checks requests and replies against the contract', async () => {
    const ep = echoEndpoint();
    const served = serve(nc, ep, echo, { log });
    const badReq = await request(nc, ep, { text: 42 } as unknown as { text: string }, { deadline: soon(), requestId: randomUUID() }).catch((e: unknown) => e);
    expect(badReq).toBeInstanceOf(BadMessageError);
    expect((badReq as Error).message).toMatch(/request does not match its contract: text/);
    const badRep = await request(nc, ep, { text: 'x', fail: 'bad-reply' }, { deadline: soon(), requestId: randomUUID() }).catch((e: unknown) => e);
    expect(badRep).toBeInstanceOf(BadMessageError);
    expect((badRep as Error).message).toMatch(/reply does not match its contract/);
    await served.stop();
  });

  it('moves a 5 MB incompressible payload both ways by claim check', async () => {
    const ep = echoEndpoint();
    const served = serve(nc, ep, echo, { log });
    // base64 of random bytes: gzip cannot shrink it under max_payload, so the claim check must carry it.
    const text = randomBytes(3_750_000).toString('base64');
    expect(text.length).toBe(5_000_000);
    expect(nc.info!.max_payload).toBeLessThan(text.length);
    const rep = await request(nc, ep, { text }, { deadline: soon(30_000), requestId: randomUUID() });
    expect(rep.length).toBe(text.length);
    expect(rep.text === text).toBe(true);
    await served.stop();
  });

  it('stop() waits for in-flight requests and then takes no more', async () => {
    const ep = echoEndpoint();
    const served = serve(nc, ep, echo, { log });
    const pending = request(nc, ep, { text: 'slow', sleepMs: 500 }, { deadline: soon(), requestId: randomUUID() });
    await new Promise((r) => setTimeout(r, 100));
    expect(served.inFlight()).toBe(1);
    await served.stop();
    await expect(pending).resolves.toMatchObject({ text: 'slow' });
    await expect(request(nc, ep, { text: 'x' }, { deadline: soon(), requestId: randomUUID() })).rejects.toBeInstanceOf(NoRespondersError);
  });

  it('answers pings so readiness checks can find an instance', async () => {
    const ep = echoEndpoint();
    expect((await ping(nc, ep, 300)).ok).toBe(false);
    const served = serve(nc, ep, echo, { log, instance: 'echo-1' });
    const p = await ping(nc, ep, 1000);
    expect(p).toEqual({ ok: true, detail: 'instance echo-1 answered' });
    await served.stop();
  });

  it('continues the caller trace: the server span is a child of the client span', async () => {
    const ep = echoEndpoint();
    const served = serve(nc, ep, echo, { log });
    telemetry.exporter.reset();
    await request(nc, ep, { text: 'traced' }, { deadline: soon(), requestId: randomUUID() });
    await served.stop();
    await telemetry.forceFlush();
    const spans = telemetry.exporter.getFinishedSpans();
    const client = spans.find((s) => s.name === `${ep.subject} request`);
    const server = spans.find((s) => s.name === `${ep.subject} process`);
    expect(client).toBeDefined();
    expect(server).toBeDefined();
    expect(server!.spanContext().traceId).toBe(client!.spanContext().traceId);
    expect(server!.parentSpanContext?.spanId).toBe(client!.spanContext().spanId);
  });
});
