/**
 * /health: 200 while the process runs. /ready: 200 only when NATS, the store and a renderer answer;
 * else 503 naming what failed (only its name). Both free, unauthenticated, exempt from rate limits.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { RENDER_PAGE, type ReadyData } from '@enrich/shared/contracts';
import { ping } from '@enrich/shared/nats';
import type { EdgeDeps } from '../deps.ts';
import { sendData, sendError } from '../envelope.ts';
import { EDGE_STATUS } from '../errors.ts';
import { parseQuery, type RawQuery } from '../params.ts';

const PROBE_TIMEOUT_MS = 1500;
const NoParams = z.strictObject({});

type ProbeLog = { warn(obj: object, msg: string): void };

/**
 * One dependency check. The answer says only whether it answered: no error text, address or
 * instance name leaves the edge (an unauthenticated probe must not map the inside); the cause is logged.
 */
async function check(name: string, log: ProbeLog, work: () => Promise<void>): Promise<{ ok: boolean; detail: string }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      work(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
      }),
    ]);
    return { ok: true, detail: 'answered' };
  } catch (err) {
    log.warn({ dependency: name, err: { message: (err as Error)?.message } }, `readiness: ${name} did not answer`);
    return { ok: false, detail: 'did not answer' };
  } finally {
    clearTimeout(timer);
  }
}

export async function checkReadiness(deps: EdgeDeps, log: ProbeLog = deps.log): Promise<ReadyData> {
  const [nats, store, renderer] = await Promise.all([
    check('nats', log, async () => {
      if (deps.nc.isClosed()) throw new Error('NATS connection is closed');
      await deps.nc.rtt();
    }),
    check('store', log, () => deps.store.ping()),
    // One request to the renderers' queue group: one instance answers, the others are not asked.
    check('renderer', log, async () => {
      const r = await ping(deps.nc, RENDER_PAGE, PROBE_TIMEOUT_MS);
      if (!r.ok) throw new Error(r.detail);
    }),
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
    const ready = await checkReadiness(deps, request.log);
    if (ready.status === 'ready') return sendData(request, reply, ready);
    const failed = Object.entries(ready.checks)
      .filter(([, c]) => !c.ok)
      .map(([name]) => name);
    return sendError(request, reply, EDGE_STATUS.NOT_READY, `Not ready: ${failed.join(', ')} did not answer`, { 'retry-after': '5' });
  });
}
