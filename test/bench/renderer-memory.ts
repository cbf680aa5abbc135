/**
 * Renderer + Chromium memory under load: the renderer runs in this process (createRenderer, no NATS,
 * so the tree measured is this node process and the Chromium it launched) with RENDER_CONCURRENCY=4,
 * and 8 clients send it render jobs in a closed loop over the bench fixture sites, alternating the
 * /enrich job (snapshot, visuals, JPEG screenshot) and the /screenshot job (JPEG, no snapshot).
 * The process tree's PSS (smaps_rollup) is sampled every 250 ms; the peak sample is broken down by
 * process kind (node, browser, renderer, gpu, utility, zygote, other). Prints and writes
 * test/bench/results/renderer-memory.json. Numbers only: nothing passes or fails.
 *
 *   node test/bench/renderer-memory.ts [requests=64]
 *   knobs: RENDER_CONCURRENCY (4), BENCH_CLIENTS (8), BROWSER_RECYCLE_PAGES, BROWSER_PSS_CAP_MB, CHROMIUM_PATH
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { RenderRequest } from '@enrich/shared/contracts';
import { createLogger } from '@enrich/shared/runtime';
import { loadRendererConfig } from '../../services/renderer/src/config.ts';
import { createRenderer } from '../../services/renderer/src/service.ts';
import { processTree } from './memory.ts';
import { serveBenchSites } from './sites.ts';
import { quantile } from './stats.ts';

const requests = Number(process.argv[2] ?? 64);
const clients = Number(process.env.BENCH_CLIENTS ?? 8);
const concurrency = process.env.RENDER_CONCURRENCY ?? '4';

type Kind = 'node' | 'browser' | 'renderer' | 'gpu' | 'utility' | 'zygote' | 'other';

function kindOf(pid: number): Kind {
  if (pid === process.pid) return 'node';
  let cmd: string;
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return 'other';
  }
  const type = /--type=([\w-]+)/.exec(cmd)?.[1];
  if (!type) return /chrom/i.test(cmd) ? 'browser' : 'other';
  if (type === 'gpu-process') return 'gpu';
  if (type === 'renderer' || type === 'utility' || type === 'zygote') return type;
  return 'other';
}

function pssKb(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

interface Sample {
  totalMb: number;
  /** This node process's own view (process.memoryUsage, RSS-based): V8 heap, buffers outside it. */
  node: { rssMb: number; heapUsedMb: number; heapTotalMb: number; externalMb: number; arrayBuffersMb: number };
  byKind: Record<string, { mb: number; processes: number }>;
  renderersMb: number[];
}

function sample(): Sample {
  const byKind: Sample['byKind'] = {};
  const renderersMb: number[] = [];
  let total = 0;
  for (const pid of processTree(process.pid)) {
    const kb = pssKb(pid);
    const kind = kindOf(pid);
    const k = (byKind[kind] ??= { mb: 0, processes: 0 });
    k.mb += kb / 1024;
    k.processes++;
    if (kind === 'renderer') renderersMb.push(Math.round(kb / 102.4) / 10);
    total += kb;
  }
  for (const k of Object.values(byKind)) k.mb = Math.round(k.mb * 10) / 10;
  const m = process.memoryUsage();
  const mb = (b: number): number => Math.round(b / 104857.6) / 10;
  const node = { rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), heapTotalMb: mb(m.heapTotal), externalMb: mb(m.external), arrayBuffersMb: mb(m.arrayBuffers) };
  return { totalMb: Math.round(total / 102.4) / 10, node, byKind, renderersMb: renderersMb.sort((a, b) => b - a) };
}

const served = await serveBenchSites();
const shots = mkdtempSync(join(tmpdir(), 'renderer-memory-'));
const config = loadRendererConfig({
  ...process.env,
  RENDER_CONCURRENCY: concurrency,
  RENDER_QUEUE: String(clients),
  ALLOW_PRIVATE_TARGETS: '127.0.0.2/32',
  SCREENSHOT_DIR: shots,
});
const renderer = createRenderer({ config, log: createLogger('renderer-memory', process.env.BENCH_LOG === 'info' ? 'info' : 'silent') });
await renderer.pool.warm();

const idle = sample();
let peak = idle;
const timer = setInterval(() => {
  const s = sample();
  if (s.totalMb > peak.totalMb) peak = s;
}, 250);

const job = (i: number): RenderRequest => {
  const enrich = i % 2 === 0;
  return {
    requestId: randomUUID(),
    url: served.sites[Math.floor(i / 2) % served.sites.length]!.url,
    viewport: { width: 1440, height: 900 },
    screenshot: { format: 'jpeg', fullPage: false },
    snapshot: enrich,
    scripts: false,
    visuals: enrich,
  };
};

let next = 0;
let failures = 0;
const latencies: { enrich: number[]; screenshot: number[] } = { enrich: [], screenshot: [] };
const started = performance.now();
await Promise.all(
  Array.from({ length: clients }, async () => {
    while (next < requests) {
      const i = next++;
      const t0 = performance.now();
      const ac = new AbortController();
      try {
        await renderer.render(job(i), { deadline: Date.now() + 60_000, signal: ac.signal, log: createLogger('job', 'silent') });
        latencies[i % 2 === 0 ? 'enrich' : 'screenshot'].push(performance.now() - t0);
      } catch (err) {
        failures++;
        process.stderr.write(`job ${i} failed: ${(err as Error).message}\n`);
      }
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
clearInterval(timer);
const after = sample();
await renderer.close();
await served.close();
rmSync(shots, { recursive: true, force: true });

const results = {
  concurrency: Number(concurrency),
  clients,
  requests,
  failures,
  seconds: Math.round(seconds * 10) / 10,
  jobsPerSecond: Math.round((requests / seconds) * 100) / 100,
  enrichP50Ms: Math.round(
    quantile(
      latencies.enrich.sort((a, b) => a - b),
      0.5,
    ),
  ),
  screenshotP50Ms: Math.round(
    quantile(
      latencies.screenshot.sort((a, b) => a - b),
      0.5,
    ),
  ),
  idle,
  peak,
  after,
};
const f = (s: Sample): string =>
  `${s.totalMb} MB  (${Object.entries(s.byKind)
    .map(([k, v]) => `${k} ${v.mb} MB/${v.processes}`)
    .join(
      ', ',
    )}); renderer processes: ${s.renderersMb.join(', ') || 'none'}; node: heap ${s.node.heapUsedMb}/${s.node.heapTotalMb} MB, external ${s.node.externalMb} MB (array buffers ${s.node.arrayBuffersMb} MB)`;
console.log(
  `renderer + Chromium PSS, RENDER_CONCURRENCY=${concurrency}, ${clients} clients, ${requests} jobs in ${results.seconds} s (${results.jobsPerSecond}/s), ${failures} failed`,
);
console.log(`  idle: ${f(idle)}`);
console.log(`  peak: ${f(peak)}`);
console.log(`  after: ${f(after)}`);
console.log(`  enrich job p50 ${results.enrichP50Ms} ms, screenshot job p50 ${results.screenshotP50Ms} ms (8 clients on 4 pages: includes queueing)`);
const out = join(import.meta.dirname, 'results');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'renderer-memory.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(`wrote ${join(out, 'renderer-memory.json')}`);
