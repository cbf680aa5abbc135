/**
 * The result cache's hit latency at the edge: one private nats-server, one listening edge with the
 * KV cache, the real renderer and analyzers, the bench fixture sites. Each site's /enrich is rendered
 * once (MISS, timed too), then asked again and again (HIT) in a closed loop at concurrency 1 and 8.
 * Prints numbers; nothing passes or fails.
 *
 *   .tools/node/bin/node test/bench/cache.ts [hitsPerLevel=400]
 *
 * "client" is fetch from this process (send to last byte read); "edge" is the edge's own
 * meta.durationMs (request received to answer sent), which is what "under 20 ms at the edge" means.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { startNatsServer } from '../support/nats-server.ts';
import { startAnalyzers } from '../support/analyzers.ts';
import { startEdge, log } from '../support/edge-harness.ts';
import { startRenderer } from '../../services/renderer/src/service.ts';
import { loadRendererConfig } from '../../services/renderer/src/config.ts';
import { serveBenchSites } from './sites.ts';
import { quantile } from './stats.ts';

const HITS = Number(process.argv[2] ?? 400);

interface Timed {
  clientMs: number;
  edgeMs: number;
  cache: string;
  bytes: number;
}

async function timedGet(base: string, path: string, key: string): Promise<Timed> {
  const t0 = performance.now();
  const res = await fetch(`${base}${path}`, { headers: { 'x-api-key': key } });
  const text = await res.text();
  const clientMs = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as { meta: { durationMs: number } };
  return { clientMs, edgeMs: body.meta.durationMs, cache: res.headers.get('x-cache') ?? '?', bytes: text.length };
}

function line(label: string, values: number[]): string {
  const s = [...values].sort((a, b) => a - b);
  const f = (q: number) => quantile(s, q).toFixed(1).padStart(7);
  return `${label.padEnd(34)} n=${String(s.length).padStart(4)}  p50 ${f(0.5)} ms  p90 ${f(0.9)} ms  p99 ${f(0.99)} ms  max ${f(1)} ms`;
}

async function hitLevel(base: string, paths: string[], key: string, concurrency: number): Promise<Timed[]> {
  const out: Timed[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < HITS) {
        const i = next++;
        out.push(await timedGet(base, paths[i % paths.length]!, key));
      }
    }),
  );
  const misses = out.filter((t) => t.cache !== 'HIT').length;
  if (misses > 0) throw new Error(`${misses} of ${out.length} repeated requests were not cache hits`);
  return out;
}

async function main(): Promise<void> {
  const nats = await startNatsServer();
  const sites = await serveBenchSites();
  const screenshotDir = mkdtempSync(join(tmpdir(), 'bench-cache-'));
  const cache = { enabled: true, maxAgeS: 86_400, maxBytes: 256 * 1_048_576, maxEntries: 100_000, maxEntryBytes: 524_288 };
  const edge = await startEdge(nats.url, {
    store: { kind: 'kv', name: `bench_${randomUUID().slice(0, 8)}` },
    screenshotDir,
    requestBudgetMs: 30_000,
    cache,
    ipRateLimitPerMin: 1_000_000,
  });
  const base = await edge.app.listen({ port: 0, host: '127.0.0.1' });
  const renderer = await startRenderer({
    nc: edge.nc,
    log,
    config: loadRendererConfig({ ALLOW_PRIVATE_TARGETS: '127.0.0.2/32', SCREENSHOT_DIR: screenshotDir, ASSETS_BASE_URL: `${base}/assets` }),
  });
  const analyzers = await startAnalyzers(edge.nc, log);
  try {
    const { key } = await edge.createKey({ credits: 1_000_000_000, rateLimit: 1_000_000 });
    const paths = sites.sites.map((s) => `/enrich?url=${encodeURIComponent(s.url)}`);
    const misses: Timed[] = [];
    for (const p of paths) misses.push(await timedGet(base, p, key));
    console.log(
      `result cache hit latency, /enrich on ${paths.length} bench sites (answers ${misses.map((m) => `${(m.bytes / 1024).toFixed(0)} KiB`).join(', ')}), KV store, node ${process.version}`,
    );
    console.log(
      line(
        'MISS (render + analyzers), edge',
        misses.map((m) => m.edgeMs),
      ),
    );
    for (const concurrency of [1, 8]) {
      const hits = await hitLevel(base, paths, key, concurrency);
      console.log(
        line(
          `HIT c=${concurrency}, edge (meta.durationMs)`,
          hits.map((h) => h.edgeMs),
        ),
      );
      console.log(
        line(
          `HIT c=${concurrency}, client (fetch)`,
          hits.map((h) => h.clientMs),
        ),
      );
    }
  } finally {
    await analyzers.stop();
    await renderer.stop();
    await edge.close();
    await sites.close();
    await nats.stop();
  }
}

await main();
