/**
 * Does a bulk job slow other customers down? A second key's single /classify requests, one at a time,
 * first on an idle stack, then while a first key's 1,000-item /classify batch runs on the same stack
 * (nats-server and the five services as processes, fixture pages on 127.0.0.2). Prints p50/p95 of
 * both phases and the batch's throughput meanwhile, and writes test/bench/results/batch.json.
 *
 *   .tools/node/bin/node test/bench/batch.ts
 *
 * Knobs: BENCH_SINGLE_REQUESTS (per phase, default 40), BENCH_BATCH_ITEMS (1000), RENDER_CONCURRENCY
 * (3), BATCH_CONCURRENCY (2), BATCH_YIELD_CONCURRENCY (0), BATCH_KEY_CONCURRENCY (2). The batch is cancelled once the second phase
 * is measured (the question is latency while it runs, not how long 1,000 items take).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, createApiKey, startStack } from '../../deploy/local/stack.ts';
import { freePort } from '../../deploy/local/nats-server.ts';
import { quantile } from './stats.ts';

const env = process.env;
const SINGLES = Number(env.BENCH_SINGLE_REQUESTS ?? 40);
const ITEMS = Number(env.BENCH_BATCH_ITEMS ?? 1000);
const settings = {
  RENDER_CONCURRENCY: env.RENDER_CONCURRENCY ?? '3',
  BATCH_CONCURRENCY: env.BATCH_CONCURRENCY ?? '2',
  BATCH_YIELD_CONCURRENCY: env.BATCH_YIELD_CONCURRENCY ?? '0',
  BATCH_KEY_CONCURRENCY: env.BATCH_KEY_CONCURRENCY ?? '2',
};

interface Phase {
  requests: number;
  failures: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  meanMs: number;
}

function page(n: string): string {
  return `<!doctype html><html lang="en"><head><title>Outdoor store ${n}</title><meta name="description" content="Store ${n} sells tents, hiking boots and outdoor clothing."></head><body><h1>Store ${n}</h1><p>Tents, sleeping bags, hiking boots and rain jackets for every season.</p><footer>Store ${n} GmbH, info${n}@store.test</footer></body></html>`;
}

async function singles(base: string, key: string, site: string, tag: string): Promise<Phase> {
  const took: number[] = [];
  let failures = 0;
  for (let i = 0; i < SINGLES; i++) {
    const t = performance.now();
    const res = await fetch(`${base}/classify?url=${encodeURIComponent(`${site}/single/${tag}/${i}`)}`, { headers: { 'x-api-key': key } });
    await res.arrayBuffer();
    took.push(performance.now() - t);
    if (res.status !== 200) failures += 1;
  }
  const sorted = [...took].sort((a, b) => a - b);
  const r = (x: number): number => Math.round(x);
  return {
    requests: took.length,
    failures,
    p50Ms: r(quantile(sorted, 0.5)),
    p95Ms: r(quantile(sorted, 0.95)),
    maxMs: r(sorted.at(-1) ?? 0),
    meanMs: r(took.reduce((a, b) => a + b, 0) / took.length),
  };
}

async function batchStatus(base: string, key: string, id: string): Promise<{ status: string; answered: number }> {
  const res = await fetch(`${base}/batch/${id}?limit=1`, { headers: { 'x-api-key': key } });
  const body = (await res.json()) as { data: { status: string; counts: { succeeded: number; failed: number } } };
  return { status: body.data.status, answered: body.data.counts.succeeded + body.data.counts.failed };
}

async function main(): Promise<void> {
  const site = createServer((req, res) =>
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page((req.url ?? '').replace(/\W/g, '') || '0')),
  );
  await new Promise<void>((r) => site.listen(0, '127.0.0.2', r));
  const siteBase = `http://127.0.0.2:${(site.address() as { port: number }).port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-batch-'));
  const stack = await startStack({
    port: await freePort(),
    dataDir,
    logs: 'files',
    env: { ALLOW_PRIVATE_TARGETS: '127.0.0.2/32', LOG_LEVEL: 'warn', RATE_LIMIT_IP_PER_MIN: '1000000', ...settings },
  });
  try {
    const bulk = await createApiKey(stack.natsUrl, { name: 'bulk', credits: 1_000_000, rateLimit: 1_000_000 });
    const other = await createApiKey(stack.natsUrl, { name: 'interactive', credits: 1_000_000, rateLimit: 1_000_000 });
    await singles(stack.baseUrl, other.key, siteBase, 'warmup').catch(() => undefined);
    const idle = await singles(stack.baseUrl, other.key, siteBase, 'idle');
    process.stdout.write(`without a batch: p50 ${idle.p50Ms} ms, p95 ${idle.p95Ms} ms (${idle.requests} requests, ${idle.failures} not 200)\n`);

    const items = Array.from({ length: ITEMS }, (_, i) => ({ url: `${siteBase}/bulk/${i}` }));
    const created = await fetch(`${stack.baseUrl}/batch`, {
      method: 'POST',
      headers: { 'x-api-key': bulk.key, 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint: 'classify', items }),
    });
    const { data } = (await created.json()) as { data: { id: string } };
    // Measure once the batch is really running (its workers have the renderer busy).
    while ((await batchStatus(stack.baseUrl, bulk.key, data.id)).answered < 4) await new Promise((r) => setTimeout(r, 200));
    const before = await batchStatus(stack.baseUrl, bulk.key, data.id);
    const t0 = Date.now();
    const busy = await singles(stack.baseUrl, other.key, siteBase, 'busy');
    const after = await batchStatus(stack.baseUrl, bulk.key, data.id);
    const itemsPerS = Math.round(((after.answered - before.answered) / ((Date.now() - t0) / 1000)) * 100) / 100;
    process.stdout.write(
      `with the batch running: p50 ${busy.p50Ms} ms, p95 ${busy.p95Ms} ms (${busy.requests} requests, ${busy.failures} not 200); batch meanwhile ${after.answered - before.answered} items, ${itemsPerS} items/s, status ${after.status}\n`,
    );
    await fetch(`${stack.baseUrl}/batch/${data.id}`, { method: 'DELETE', headers: { 'x-api-key': bulk.key } });

    const result = {
      when: new Date().toISOString(),
      settings,
      singleRequestsPerPhase: SINGLES,
      batchItems: ITEMS,
      endpoint: 'classify',
      withoutBatch: idle,
      withBatch: busy,
      batchDuringPhase: { answered: after.answered - before.answered, itemsPerS },
    };
    const out = join(REPO_ROOT, 'test', 'bench', 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'batch.json'), `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(`wrote ${join(out, 'batch.json')}\n`);
  } finally {
    await stack.stop();
    site.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
