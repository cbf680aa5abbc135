import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNats } from '../nats/connect.ts';
import { request } from '../nats/request.ts';
import { NoRespondersError } from '../errors.ts';
import { SLOW_ECHO } from './fixtures/slow-echo-endpoint.ts';

const script = join(import.meta.dirname, 'fixtures/slow-echo-service.ts');

function startService(env: Record<string, string>) {
  const child = spawn(process.execPath, [script], { env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, exited, output: () => output };
}

let nc: NatsConnection;
beforeAll(async () => {
  nc = await connectNats({ url: inject('natsUrl'), name: 'service-test' });
});
afterAll(async () => {
  await nc?.drain();
});

describe('runService', () => {
  it('stops at start with a message naming a wrong variable and its value', async () => {
    const svc = startService({ NATS_URL: inject('natsUrl'), ECHO_DELAY_MS: 'soon' });
    expect(await svc.exited).toBe(78);
    expect(svc.output()).toContain('ECHO_DELAY_MS="soon": must be a whole number');
  });

  it('exits non-zero when its start fails, so a supervisor sees the failure', async () => {
    const svc = startService({ NATS_URL: inject('natsUrl'), ECHO_FAIL_START: '1' });
    expect(await svc.exited).toBe(1);
    expect(svc.output()).toContain('slow-echo failed to start');
    expect(svc.output()).toContain('the dependency this service needs is not there');
  });

  it('on SIGTERM answers the request in flight, then takes no more and exits 0', async () => {
    const svc = startService({ NATS_URL: inject('natsUrl'), ECHO_DELAY_MS: '800' });
    // Wait until it serves.
    const until = Date.now() + 15_000;
    while (!svc.output().includes('slow-echo started')) {
      if (Date.now() > until) throw new Error(`service did not start: ${svc.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const inFlight = request(nc, SLOW_ECHO, { text: 'drain me' }, { deadline: Date.now() + 10_000, requestId: randomUUID() });
    await new Promise((r) => setTimeout(r, 200));
    svc.child.kill('SIGTERM');
    await expect(inFlight).resolves.toEqual({ text: 'drain me' });
    expect(await svc.exited).toBe(0);
    expect(svc.output()).toContain('"msg":"stopped"');
    const after = await request(nc, SLOW_ECHO, { text: 'x' }, { deadline: Date.now() + 2000, requestId: randomUUID() }).catch((e: unknown) => e);
    expect(after).toBeInstanceOf(NoRespondersError);
  });

  it('logs JSON lines carrying the trace and request ids of the message being handled', async () => {
    const svc = startService({ NATS_URL: inject('natsUrl'), ECHO_DELAY_MS: '0', LOG_LEVEL: 'debug' });
    const until = Date.now() + 15_000;
    while (!svc.output().includes('slow-echo started')) {
      if (Date.now() > until) throw new Error(`service did not start: ${svc.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const requestId = randomUUID();
    // An invalid request makes the service log a refusal inside the handler's context.
    await request(nc, SLOW_ECHO, { text: 5 } as unknown as { text: string }, { deadline: Date.now() + 5000, requestId }).catch(() => undefined);
    svc.child.kill('SIGTERM');
    await svc.exited;
    const line = svc
      .output()
      .split('\n')
      .find((l) => l.includes(requestId));
    expect(line).toBeDefined();
    const parsed = JSON.parse(line!) as Record<string, unknown>;
    expect(parsed.requestId).toBe(requestId);
    expect(parsed.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(parsed.service).toBe('slow-echo');
  });
});
