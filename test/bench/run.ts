/**
 * `npm run bench`: latency, throughput and memory of the running system, and the baselines it is
 * measured against, in one run on this machine. Starts the whole stack (or uses BENCH_BASE_URL +
 * BENCH_API_KEY), serves the fixture sites under test/fixtures/sites/bench-* on 127.0.0.2, and writes
 * test/bench/results/bench.json, bench.md and latency.svg. Numbers only: nothing here passes or fails.
 *
 * Knobs (environment): BENCH_LEVELS (1,2,4,8), BENCH_REQUESTS per level (12; at least 2 x concurrency),
 * BENCH_LAUNCH_REQUESTS per level for the browser-per-request baseline (6; at least the concurrency), BENCH_SEQUENTIAL_ROUNDS (6),
 * BENCH_RATES for the edge overhead (100,300,1000), BENCH_RATE_SECONDS (5), CHROMIUM_PATH,
 * RENDER_CONCURRENCY (4: the issue's memory goal is set at 4), BENCH_SCALE_RENDERERS (2; 0 skips the
 * scale-out level: a second stack with that many renderer processes, /screenshot and /enrich at the
 * highest level), BENCH_PAIRED_BLOCKS (6; 0 skips the goal ratios in alternating blocks, paired.ts, and
 * the goals then read the levels).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { envInt, loadConfig } from '@enrich/shared/runtime';
import { natsServerBinary, freePort } from '../../deploy/local/nats-server.ts';
import { REPO_ROOT, createApiKey, startStack, type Stack } from '../../deploy/local/stack.ts';
import { DEFAULT_CHROMIUM_PATH } from '../../services/renderer/src/config.ts';
import { apiClient, type ApiClient } from './api.ts';
import { screenshotWithFreshBrowser, warmBrowserBaseline } from './baselines.ts';
import { autocannonVersion, measureOverhead, type OverheadPath } from './edge-overhead.ts';
import { benchCpuPerRequest, cpuPerRequest, cpuTotal, readCpu } from './cpu.ts';
import { benchGoals } from './goals.ts';
import { machineInfo } from './machine.ts';
import { sampleMemory, type MemorySampler } from './memory.ts';
import { chartSeries, latencyChartSvg, renderMarkdown, type BenchResults, type LevelResult } from './report.ts';
import { serveBenchSites } from './sites.ts';
import { alternate, type PairedResult, type SideTask } from './paired.ts';
import { closedLoop, ratio, summarize, type Sample } from './stats.ts';

const csvInts = (def: string) =>
  z
    .string()
    .regex(/^\d+(,\d+)*$/, { message: 'must be comma-separated whole numbers' })
    .default(def)
    .transform((s) => s.split(',').map(Number));

const config = loadConfig(
  z.object({
    BENCH_BASE_URL: z.url().optional(),
    BENCH_API_KEY: z.string().min(1).optional(),
    BENCH_LEVELS: csvInts('1,2,4,8'),
    BENCH_REQUESTS: envInt(1, 10_000).default(12),
    BENCH_LAUNCH_REQUESTS: envInt(1, 1000).default(6),
    BENCH_SEQUENTIAL_ROUNDS: envInt(1, 1000).default(6),
    BENCH_RATES: csvInts('100,300,1000'),
    BENCH_RATE_SECONDS: envInt(1, 600).default(5),
    CHROMIUM_PATH: z.string().default(DEFAULT_CHROMIUM_PATH),
    RENDER_CONCURRENCY: envInt(1, 64).default(4),
    BENCH_SCALE_RENDERERS: envInt(0, 16).default(2),
    BENCH_PAIRED_BLOCKS: envInt(0, 100).default(6),
  }),
);
if (config.BENCH_BASE_URL && !config.BENCH_API_KEY) {
  process.stderr.write('BENCH_BASE_URL needs BENCH_API_KEY (a key with plenty of credits and a high rate limit)\n');
  process.exit(2);
}

const say = (line = ''): void => void process.stdout.write(`${line}\n`);
const runStarted = performance.now();
const loadAtStart = Math.round(loadavg()[0]! * 100) / 100;
const phaseTimer = (label: string): (() => void) => {
  const t0 = performance.now();
  say(`\n== ${label}`);
  return () => say(`   (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
};
const requestsAt = (c: number, base: number): number => Math.max(base, 2 * c);

const machine = machineInfo({ chromiumPath: config.CHROMIUM_PATH, natsServerBin: natsServerBinary(), repoRoot: REPO_ROOT, autocannon: autocannonVersion() });
say(`machine: ${machine.cores} cores, ${machine.cpuModel}, ${machine.memoryGb} GB; ${machine.kernel}; load average ${loadAtStart}`);
say(
  `versions: Node ${machine.node}; ${machine.chromium}; playwright-core ${machine.playwrightCore}; ${machine.natsServer}; autocannon ${machine.autocannon}; commit ${machine.gitCommit}`,
);

const served = await serveBenchSites();
const sites = served.sites;
const urlFor = (i: number): string => sites[i % sites.length]!.url;
say(`fixture sites: ${sites.map((s) => `${s.name} ${s.url}`).join(', ')}`);

let stack: Stack | undefined;

/** The stack as the bench runs it: no limit refuses a bench request, no result cache (repeats would be hits; test/bench/cache.ts measures those). */
function startBenchStack(port: number, dir: string, renderers: number): Promise<Stack> {
  return startStack({
    port,
    dataDir: dir,
    logs: 'files',
    renderers,
    env: { LOG_LEVEL: 'warn', ALLOW_PRIVATE_TARGETS: '127.0.0.2/32', CHROMIUM_PATH: config.CHROMIUM_PATH },
    serviceEnv: {
      edge: { RATE_LIMIT_IP_PER_MIN: '1000000', CACHE_ENABLED: 'false' },
      // NODE_OPTIONS as the images set them: deploy/local/stack.ts IMAGE_ENV.
      renderer: { RENDER_CONCURRENCY: String(config.RENDER_CONCURRENCY) },
    },
    readyTimeoutMs: 180_000,
  });
}
let dataDir: string | undefined;
let memory: MemorySampler | undefined;
/** The stack's process trees (when started here), for CPU per request. */
let servicePids: Record<string, number> | undefined;
let failed = false;

async function cleanup(): Promise<void> {
  memory?.stop();
  await stack?.stop().catch(() => undefined);
  await served.close().catch(() => undefined);
  if (dataDir && !failed) rmSync(dataDir, { recursive: true, force: true });
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    failed = true;
    void cleanup().then(() => process.exit(130));
  });
}

try {
  let baseUrl: string;
  let apiKey: string;
  const setup: BenchResults['setup'] = {};
  if (config.BENCH_BASE_URL) {
    baseUrl = config.BENCH_BASE_URL.replace(/\/$/, '');
    apiKey = config.BENCH_API_KEY!;
    setup.stack = `external ${baseUrl}`;
  } else {
    const done = phaseTimer('starting the stack');
    dataDir = mkdtempSync(join(tmpdir(), 'enrich-bench-'));
    const port = await freePort();
    stack = await startBenchStack(port, dataDir, 1);
    baseUrl = stack.baseUrl;
    apiKey = (await createApiKey(stack.natsUrl, { name: 'bench', credits: 1_000_000_000, rateLimit: 1_000_000 })).key;
    setup.stack = 'started here (nats-server + 5 services, one process each)';
    say(`   stack up at ${baseUrl}; service logs in ${join(dataDir, 'logs')}`);
    done();
    const pids: Record<string, number> = {};
    for (const [name, proc] of stack.processes) if (proc.pid) pids[name] = proc.pid;
    if (stack.nats?.process.pid) pids['nats-server'] = stack.nats.process.pid;
    memory = sampleMemory(pids, { intervalMs: 200, pssEvery: 5 });
    servicePids = pids;
  }
  setup.renderConcurrency = config.RENDER_CONCURRENCY;
  setup.requestsPerLevel = `max(${config.BENCH_REQUESTS}, 2 x concurrency)`;
  setup.viewport = '1440x900 jpeg (API defaults)';
  const api: ApiClient = apiClient(baseUrl, apiKey);

  {
    const done = phaseTimer('warming up (one /screenshot and one /enrich per page, not counted)');
    memory?.phase('warm-up');
    for (const s of sites) {
      for (const path of ['/screenshot', '/enrich']) {
        const r = await api.call(path, { url: s.url });
        if (!r.ok) throw new Error(`warm-up ${path} ${s.url} answered ${r.status}: ${r.body?.error ?? 'no envelope'}`);
      }
    }
    done();
  }

  async function apiLevels(path: string, params: Record<string, string>): Promise<LevelResult[]> {
    const rows: LevelResult[] = [];
    for (const c of config.BENCH_LEVELS) {
      memory?.phase(`${path} c=${c}`);
      const n = requestsAt(c, config.BENCH_REQUESTS);
      const cpuBefore = servicePids && readCpu(servicePids);
      const selfBefore = process.cpuUsage();
      const { samples, wallMs } = await closedLoop(c, n, async (i) => {
        const r = await api.call(path, { url: urlFor(i), ...params });
        return { ok: r.ok, status: r.status };
      });
      const cpuMs = servicePids && cpuBefore ? { ...cpuPerRequest(cpuBefore, readCpu(servicePids), n), bench: benchCpuPerRequest(selfBefore, n) } : undefined;
      const row: LevelResult = { concurrency: c, ...summarize(samples, wallMs), ...(cpuMs ? { cpuMs } : {}) };
      say(
        `   c=${c}: ${row.ok}/${row.requests} ok, p50 ${row.p50} ms, p95 ${row.p95} ms, p99 ${row.p99} ms, ${row.throughput} req/s${cpuMs ? `, CPU ${cpuTotal(cpuMs)} ms/request` : ''}${row.errors ? `, errors ${JSON.stringify(row.errorStatuses)}` : ''}`,
      );
      rows.push(row);
    }
    return rows;
  }

  let done = phaseTimer('/screenshot');
  const screenshot = await apiLevels('/screenshot', {});
  done();
  done = phaseTimer('/enrich');
  const enrich = await apiLevels('/enrich', {});
  done();

  done = phaseTimer('/enrich against /brand + /company + /classify one after another');
  memory?.phase('enrich vs sequential');
  const enrichSamples: Sample[] = [];
  const seqSamples: Sample[] = [];
  const partSamples: Record<string, Sample[]> = { '/brand': [], '/company': [], '/classify': [] };
  const seqStarted = performance.now();
  for (let k = 0; k < config.BENCH_SEQUENTIAL_ROUNDS; k++) {
    const url = urlFor(k);
    const oneEnrich = async (): Promise<void> => {
      const t0 = performance.now();
      const r = await api.call('/enrich', { url });
      enrichSamples.push({ ms: performance.now() - t0, ok: r.ok, status: r.status });
    };
    const sequence = async (): Promise<void> => {
      const t0 = performance.now();
      let ok = true;
      let status = 200;
      for (const path of Object.keys(partSamples)) {
        const p0 = performance.now();
        const r = await api.call(path, { url });
        partSamples[path]!.push({ ms: performance.now() - p0, ok: r.ok, status: r.status });
        if (!r.ok) {
          ok = false;
          status = r.status;
        }
      }
      seqSamples.push({ ms: performance.now() - t0, ok, status });
    };
    // Alternate which goes first, so neither always meets a cache or a queue the other left behind.
    if (k % 2 === 0) {
      await oneEnrich();
      await sequence();
    } else {
      await sequence();
      await oneEnrich();
    }
  }
  const seqWall = performance.now() - seqStarted;
  const enrichSeq = summarize(enrichSamples, seqWall);
  const sequential = summarize(seqSamples, seqWall);
  const enrichVsSequential: BenchResults['enrichVsSequential'] = {
    rounds: config.BENCH_SEQUENTIAL_ROUNDS,
    enrich: enrichSeq,
    sequential,
    parts: Object.fromEntries(Object.entries(partSamples).map(([k, v]) => [k, summarize(v, seqWall)])),
    p50Ratio: ratio(enrichSeq.p50, sequential.p50),
    meanRatio: ratio(enrichSeq.mean, sequential.mean),
  };
  say(`   /enrich p50 ${enrichSeq.p50} ms; sequence p50 ${sequential.p50} ms; ratio ${enrichVsSequential.p50Ratio}`);
  done();

  done = phaseTimer('bare Playwright baseline (same Chromium, same flags, warm browser)');
  memory?.phase('baselines (stack idle)');
  const chromium = { executablePath: config.CHROMIUM_PATH };
  const warm = await warmBrowserBaseline(chromium);
  setup.baselineBrowser = warm.version;
  const playwrightBaseline: LevelResult[] = [];
  try {
    for (const s of sites) await warm.screenshot(s.url);
    for (const c of config.BENCH_LEVELS) {
      const n = requestsAt(c, config.BENCH_REQUESTS);
      const browserTree = warm.pid ? { chromium: warm.pid } : undefined;
      const cpuBefore = browserTree && readCpu(browserTree);
      const selfBefore = process.cpuUsage();
      const { samples, wallMs } = await closedLoop(c, n, async (i) => {
        await warm.screenshot(urlFor(i));
        return { ok: true, status: 200 };
      });
      const cpuMs = browserTree && cpuBefore ? { ...cpuPerRequest(cpuBefore, readCpu(browserTree), n), bench: benchCpuPerRequest(selfBefore, n) } : undefined;
      const row: LevelResult = { concurrency: c, ...summarize(samples, wallMs), ...(cpuMs ? { cpuMs } : {}) };
      say(
        `   c=${c}: p50 ${row.p50} ms, p95 ${row.p95} ms, ${row.throughput} shots/s${cpuMs ? `, CPU ${cpuTotal(cpuMs)} ms/shot` : ''}${row.errors ? `, ${row.errors} failed` : ''}`,
      );
      playwrightBaseline.push(row);
    }
  } finally {
    await warm.close();
  }
  done();

  done = phaseTimer('a browser launched per request');
  const launchPerRequest: LevelResult[] = [];
  for (const c of config.BENCH_LEVELS) {
    // Launching is slow: one browser per concurrent client is enough to see the cost.
    const n = Math.max(c, config.BENCH_LAUNCH_REQUESTS);
    const { samples, wallMs } = await closedLoop(c, n, async (i) => {
      await screenshotWithFreshBrowser(chromium, urlFor(i));
      return { ok: true, status: 200 };
    });
    const row = { concurrency: c, ...summarize(samples, wallMs) };
    say(`   c=${c}: p50 ${row.p50} ms, p95 ${row.p95} ms, ${row.throughput} shots/s${row.errors ? `, ${row.errors} failed` : ''}`);
    launchPerRequest.push(row);
  }
  done();

  const against = (theirs: readonly LevelResult[]) =>
    screenshot.map((o) => {
      const t = theirs.find((x) => x.concurrency === o.concurrency);
      return {
        concurrency: o.concurrency,
        p50: t ? ratio(o.p50, t.p50) : null,
        p95: t ? ratio(o.p95, t.p95) : null,
        throughput: t ? ratio(o.throughput, t.throughput) : null,
      };
    });

  done = phaseTimer(`edge overhead under autocannon (${config.BENCH_RATES.join(', ')} req/s, ${config.BENCH_RATE_SECONDS} s each)`);
  memory?.phase('edge overhead');
  const refusedUrl = 'http://10.255.255.1/';
  const probe = await api.call('/screenshot', { url: refusedUrl });
  // A key allowed 1 request a minute (only when the stack is started here): the path's unrecorded warm-up
  // second spends it, and every measured request on it is a 429.
  const spentKey = stack ? (await createApiKey(stack.natsUrl, { name: 'bench-spent', credits: 1000, rateLimit: 1 })).key : undefined;
  const paths: OverheadPath[] = [
    {
      name: 'health',
      path: '/health',
      authenticated: false,
      expectStatus: 200,
      exercises: 'no key, no store, exempt from rate limits: fastify, the envelope and the client; the floor the others sit on',
    },
    {
      name: 'bad-parameter',
      path: `/classify?url=${encodeURIComponent(urlFor(0))}&colour=red`,
      authenticated: true,
      expectStatus: 400,
      exercises:
        "per-IP and per-key windows (hits leased from the KV windows by this edge instance, a compare-and-set per lease), key lookup (the instance's key cache), query validation refusing an unknown parameter, usage-log entry (written in batches after the answer); no credits reserved",
    },
    {
      name: 'no-key',
      path: `/screenshot?url=${encodeURIComponent(urlFor(0))}`,
      authenticated: false,
      expectStatus: 401,
      refusal: true,
      exercises: 'per-IP window (leased), then the refusal of a request without X-API-Key (401); no key lookup, no credits, no write but the leases',
    },
    ...(spentKey
      ? [
          {
            name: 'rate-limited',
            path: `/screenshot?url=${encodeURIComponent(urlFor(0))}`,
            authenticated: true,
            apiKey: spentKey,
            expectStatus: 429,
            refusal: true,
            exercises:
              'per-IP window, key lookup (key cache), then the per-key window refusing a key whose 1 request/min is spent (429), remembered by the instance until the retry time (no store call); the usage-log entry (batched); no credits',
          },
        ]
      : []),
    {
      name: 'refused-url',
      path: `/screenshot?url=${encodeURIComponent(refusedUrl)}`,
      authenticated: true,
      expectStatus: probe.status,
      refusal: true,
      exercises: `per-IP and per-key windows (leased), key lookup (key cache), then the edge's own refusal of a literal private address before any credit or render, and the usage-log entry (batched); answered ${probe.status}${probe.body?.error ? ` ("${probe.body.error.slice(0, 90)}")` : ''}`,
    },
  ];
  const steps = await measureOverhead(baseUrl, apiKey, paths, config.BENCH_RATES, {
    durationS: config.BENCH_RATE_SECONDS,
    log: say,
    // Each refusal path's top-rate step is compared with /health measured just before it.
    floor: paths.find((p) => p.name === 'health'),
  });
  done();

  // The goal ratios again, our side and bare Playwright taking turns in short blocks (paired.ts); after
  // the edge overhead, so that phase still starts on a stack that has been idle (the baselines).
  let paired: PairedResult | null = null;
  if (config.BENCH_PAIRED_BLOCKS > 0) {
    const blocks = config.BENCH_PAIRED_BLOCKS;
    const top = Math.max(...config.BENCH_LEVELS);
    done = phaseTimer(`goal ratios in alternating blocks (${blocks} blocks; concurrency 1, 4 and ${top})`);
    memory?.phase('alternating blocks');
    const bare = await warmBrowserBaseline(chromium);
    try {
      for (const s of sites) await bare.screenshot(s.url);
      const ours =
        (path: string): SideTask =>
        async (i) => {
          const r = await api.call(path, { url: urlFor(i) });
          return { ok: r.ok, status: r.status };
        };
      const bareShot: SideTask = async (i) => {
        await bare.screenshot(urlFor(i));
        return { ok: true, status: 200 };
      };
      // Two requests a page each: at concurrency 1 the p50 of four unlike pages is the noisiest reading.
      const perBlock1 = 2 * sites.length;
      const c1 = await alternate(1, perBlock1, blocks, { screenshot: ours('/screenshot'), enrich: ours('/enrich'), bare: bareShot });
      const perBlock4 = 3 * 4;
      const c4 = await alternate(4, perBlock4, blocks, { screenshot: ours('/screenshot'), bare: bareShot });
      const perBlockTop = 2 * top;
      const sat = await alternate(top, perBlockTop, blocks, { enrich: ours('/enrich'), bare: bareShot });
      paired = {
        blocks,
        c1: { perBlock: perBlock1, ...c1 },
        c4: { perBlock: perBlock4, ...c4 },
        saturation: { concurrency: top, perBlock: perBlockTop, ...sat },
      };
      say(`   c=1: /screenshot p50 ${c1.screenshot.p50} ms, /enrich p50 ${c1.enrich.p50} ms, bare p50 ${c1.bare.p50} ms (${c1.bare.requests} each)`);
      say(`   c=4: /screenshot p50 ${c4.screenshot.p50} ms, bare p50 ${c4.bare.p50} ms (${c4.bare.requests} each)`);
      say(`   c=${top}: /enrich ${sat.enrich.throughput} req/s, bare ${sat.bare.throughput} shots/s (${sat.bare.requests} each)`);
    } finally {
      await bare.close();
    }
    done();
  }

  const memoryReport = memory?.stop() ?? null;
  memory = undefined;

  // Scale-out: the same system with more renderer processes, at the highest level only.
  let scaleOut: BenchResults['scaleOut'] = null;
  if (stack && config.BENCH_SCALE_RENDERERS > 1) {
    const renderers = config.BENCH_SCALE_RENDERERS;
    done = phaseTimer(`scale-out: a stack with ${renderers} renderer processes`);
    await stack.stop();
    stack = await startBenchStack(await freePort(), join(dataDir!, `scale-${renderers}`), renderers);
    const scaleKey = (await createApiKey(stack.natsUrl, { name: 'bench-scale', credits: 1_000_000_000, rateLimit: 1_000_000 })).key;
    const scaleApi = apiClient(stack.baseUrl, scaleKey);
    for (const s of sites) for (const path of ['/screenshot', '/enrich']) await scaleApi.call(path, { url: s.url });
    const c = Math.max(...config.BENCH_LEVELS);
    const level = async (path: string): Promise<LevelResult> => {
      const n = requestsAt(c, config.BENCH_REQUESTS);
      const { samples, wallMs } = await closedLoop(c, n, async (i) => {
        const r = await scaleApi.call(path, { url: urlFor(i) });
        return { ok: r.ok, status: r.status };
      });
      const row = { concurrency: c, ...summarize(samples, wallMs) };
      say(
        `   ${path} c=${c}: ${row.ok}/${row.requests} ok, p50 ${row.p50} ms, ${row.throughput} req/s, ${(row.throughput / renderers).toFixed(2)} per renderer`,
      );
      return row;
    };
    scaleOut = { renderers, screenshot: await level('/screenshot'), enrich: await level('/enrich') };
    done();
  }

  const results: BenchResults = {
    machine,
    setup,
    sites,
    screenshot,
    enrich,
    playwrightBaseline,
    launchPerRequest,
    screenshotVsPlaywright: against(playwrightBaseline),
    screenshotVsLaunchPerRequest: against(launchPerRequest),
    enrichVsSequential,
    edgeOverhead: { paths, steps },
    paired,
    scaleOut,
    memory: memoryReport,
    durationS: (performance.now() - runStarted) / 1000,
    loadAverage: { start: loadAtStart, end: Math.round(loadavg()[0]! * 100) / 100 },
  };

  const outDir = join(REPO_ROOT, 'test/bench/results');
  mkdirSync(outDir, { recursive: true });
  const svg = latencyChartSvg('Latency against concurrency (fixture pages on 127.0.0.2)', config.BENCH_LEVELS, chartSeries(results));
  writeFileSync(join(outDir, 'latency.svg'), svg);
  writeFileSync(join(outDir, 'bench.json'), `${JSON.stringify({ ...results, goals: benchGoals(results) }, null, 2)}\n`);
  const md = renderMarkdown(results, 'latency.svg');
  writeFileSync(join(outDir, 'bench.md'), md);
  say(`\n${md}`);
  say(`wrote ${['bench.json', 'bench.md', 'latency.svg'].map((f) => relative(process.cwd(), join(outDir, f))).join(', ')}`);
} catch (err) {
  failed = true;
  process.stderr.write(`\nbenchmark failed: ${(err as Error).stack ?? String(err)}\n`);
  if (dataDir) process.stderr.write(`service logs kept in ${join(dataDir, 'logs')}\n`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
