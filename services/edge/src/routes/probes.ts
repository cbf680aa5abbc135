/**
 * /health: 200 while the process runs. /ready: 200 only when NATS, the store and at least one
 * renderer answer; else 503 naming what failed. Both free, unauthenticated, exempt from rate limits.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { RENDER_PAGE, type ReadyData } from '@enrich/shared/contracts';
import { ping } from '@enrich/shared/nats';
import type { EdgeDeps } from '../app.ts';
import { sendData, sendError } from '../envelope.ts';
import { parseQuery, type RawQuery } from '../params.ts';

const PROBE_TIMEOUT_MS = 1500;
const NoParams = z.strictObject({});

async function timed(what: string, work: () => Promise<string>): Promise<{ ok: boolean; detail: string }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const detail = await Promise.race([
      work(),
      new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} did not answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS); }),
    ]);
    return { ok: true, detail };
  } catch (err) {
    return { ok: false, detail: (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

export async function checkReadiness(deps: EdgeDeps): Promise<ReadyData> {
  const [nats, store, renderer] = await Promise.all([
    timed('NATS', async () => {
      if (deps.nc.isClosed()) throw new Error('NATS connection is closed');
      const rtt = await deps.nc.rtt();
      return `connected, round trip ${Math.round(rtt)} ms`;
    }),
    timed(`${deps.store.kind} store`, async () => {
      await deps.store.ping();
      return `${deps.store.kind} store answered`;
    }),
    (async () => ping(deps.nc, RENDER_PAGE, PROBE_TIMEOUT_MS))(),
  ]);
  const ready = nats.ok && store.ok && renderer.ok;
  return { status: ready ? 'ready' : 'not_ready', checks: { nats, store, renderer } };
}

export function registerProbes(app: FastifyInstance, deps: EdgeDeps): void {
  const startedAt = Date.now();
  app.get('/health', async (request, reply) => {
    parseQuery(NoParams, request.query as RawQuery);
    return sendData(request, reply, { status: 'ok' as const, uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) });
  });
  app.get('/ready', async (request, reply) => {
    parseQuery(NoParams, request.query as RawQuery);
    const ready = await checkReadiness(deps);
    if (ready.status === 'ready') return sendData(request, reply, ready);
    const failed = Object.entries(ready.checks).filter(([, c]) => !c.ok).map(([name, c]) => `${name}: ${c.detail}`);
    return sendError(request, reply, 503, `Not ready: ${failed.join('; ')}`, { 'retry-after': '5' });
  });
}
