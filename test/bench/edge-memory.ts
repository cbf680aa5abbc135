/**
 * A service's memory under load, for each NODE_OPTIONS given (the edge's unless MEMORY_SERVICE names
 * another): a stack is started per variant (that service with that NODE_OPTIONS, the others as the
 * images run them), then 8 clients send /enrich over the bench fixture sites and autocannon offers
 * 1000 req/s of refused requests (no key). The process's RSS and PSS are sampled every 100 ms; their
 * peaks per phase and the variant are printed and written to test/bench/results/<service>-memory.json.
 * Numbers only.
 *
 *   node test/bench/edge-memory.ts ['' '--max-semi-space-size=2' 'MALLOC_ARENA_MAX=2 --max-semi-space-size=2' ...]
 *   MEMORY_SERVICE=brand node test/bench/edge-memory.ts '' 'MALLOC_ARENA_MAX=2'
 * Each argument is one variant: `--flags` go to the service's NODE_OPTIONS, `NAME=value` words to its
 * environment; an empty variant runs the service with no NODE_OPTIONS and none of the image's settings.
 *   knobs: MEMORY_SERVICE (edge), BENCH_REQUESTS (32), BENCH_CLIENTS (8), CHROMIUM_PATH
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiKey, IMAGE_ENV, SERVICES, type ServiceName, startStack } from '../../deploy/local/stack.ts';
import { freePort } from '../../deploy/local/nats-server.ts';
import { apiClient } from './api.ts';
import { serveBenchSites } from './sites.ts';
import { closedLoop } from './stats.ts';

const variants = process.argv.length > 2 ? process.argv.slice(2) : ['', '--max-semi-space-size=2'];
const requests = Number(process.env.BENCH_REQUESTS ?? 32);
const clients = Number(process.env.BENCH_CLIENTS ?? 8);
const require = createRequire(import.meta.url);
const service = (process.env.MEMORY_SERVICE ?? 'edge') as ServiceName;
if (!SERVICES.includes(service)) throw new Error(`MEMORY_SERVICE must be one of ${SERVICES.join(', ')}`);

/** A field of /proc/<pid>/status or smaps_rollup in MB; 0 when the process is gone. */
function procMb(pid: number, file: 'status' | 'smaps_rollup', field: 'VmRSS' | 'Pss'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/${file}`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}
const rssMb = (pid: number): number => procMb(pid, 'status', 'VmRSS');
const pssMb = (pid: number): number => procMb(pid, 'smaps_rollup', 'Pss');

function flood(url: string, rate: number, seconds: number): Promise<void> {
  const cli = require.resolve('autocannon/autocannon.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, '-j', '-c', '50', '-d', String(seconds), '-R', String(rate), url], { stdio: 'ignore' });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`autocannon exited ${code}`))));
  });
}

/** `--flag` words become NODE_OPTIONS, `NAME=value` words environment variables. */
function variantEnv(variant: string): Record<string, string> {
  const words = variant.split(/\s+/).filter(Boolean);
  // The image's settings are unset unless the variant names them again.
  const env: Record<string, string> = Object.fromEntries(Object.keys(IMAGE_ENV[service] ?? {}).map((k) => [k, '']));
  env.NODE_OPTIONS = words.filter((w) => w.startsWith('--')).join(' ');
  for (const w of words.filter((x) => !x.startsWith('--') && x.includes('='))) env[w.slice(0, w.indexOf('='))] = w.slice(w.indexOf('=') + 1);
  return env;
}

interface Result {
  nodeOptions: string;
  idleMb: number;
  enrichPeakMb: number;
  floodPeakMb: number;
  afterMb: number;
  idlePssMb: number;
  enrichPeakPssMb: number;
  floodPeakPssMb: number;
  afterPssMb: number;
  enrichOk: number;
}

const sites = await serveBenchSites();
const results: Result[] = [];
try {
  for (const nodeOptions of variants) {
    const dir = mkdtempSync(join(tmpdir(), `${service}-memory-`));
    const stack = await startStack({
      port: await freePort(),
      dataDir: dir,
      logs: 'files',
      env: { LOG_LEVEL: 'warn', ALLOW_PRIVATE_TARGETS: '127.0.0.2/32', ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}) },
      serviceEnv: {
        edge: { RATE_LIMIT_IP_PER_MIN: '1000000', CACHE_ENABLED: 'false', ...(service === 'edge' ? variantEnv(nodeOptions) : {}) },
        ...(service === 'edge' ? {} : { [service]: variantEnv(nodeOptions) }),
      },
      readyTimeoutMs: 180_000,
    });
    try {
      const pid = stack.processes.get(service)?.pid;
      if (!pid) throw new Error(`no ${service} process`);
      const { key } = await createApiKey(stack.natsUrl, { name: `${service}-memory`, credits: 1e9, rateLimit: 1_000_000 });
      const api = apiClient(stack.baseUrl, key);
      for (const s of sites.sites) await api.call('/enrich', { url: s.url }, { timeoutMs: 90_000 });
      await new Promise((r) => setTimeout(r, 2000));
      const idleMb = rssMb(pid);
      const idlePssMb = pssMb(pid);
      let peak = idleMb;
      let peakPss = idlePssMb;
      const timer = setInterval(() => {
        peak = Math.max(peak, rssMb(pid));
        peakPss = Math.max(peakPss, pssMb(pid));
      }, 100);
      const { samples } = await closedLoop(clients, requests, async (i) => {
        const r = await api.call('/enrich', { url: sites.sites[i % sites.sites.length]!.url }, { timeoutMs: 90_000 });
        return { ok: r.ok, status: r.status };
      });
      const enrichPeakMb = peak;
      const enrichPeakPssMb = peakPss;
      peak = rssMb(pid);
      peakPss = pssMb(pid);
      await flood(`${stack.baseUrl}/screenshot?url=${encodeURIComponent(sites.sites[0]!.url)}`, 1000, 10);
      const floodPeakMb = peak;
      const floodPeakPssMb = peakPss;
      clearInterval(timer);
      await new Promise((r) => setTimeout(r, 2000));
      const r: Result = {
        nodeOptions,
        idleMb,
        enrichPeakMb,
        floodPeakMb,
        afterMb: rssMb(pid),
        idlePssMb,
        enrichPeakPssMb,
        floodPeakPssMb,
        afterPssMb: pssMb(pid),
        enrichOk: samples.filter((s) => s.ok).length,
      };
      results.push(r);
      console.log(
        `${service} ${JSON.stringify(nodeOptions)}: RSS / PSS idle ${idleMb.toFixed(0)} / ${idlePssMb.toFixed(0)} MB, /enrich x${requests} at c=${clients} peak ${enrichPeakMb.toFixed(0)} / ${enrichPeakPssMb.toFixed(0)} MB (${r.enrichOk} ok), 1000 req/s refused peak ${floodPeakMb.toFixed(0)} / ${floodPeakPssMb.toFixed(0)} MB, after ${r.afterMb.toFixed(0)} / ${r.afterPssMb.toFixed(0)} MB`,
      );
    } finally {
      await stack.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  await sites.close();
}
const out = join(import.meta.dirname, 'results');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, `${service}-memory.json`), `${JSON.stringify({ at: new Date().toISOString(), service, requests, clients, results }, null, 2)}\n`);
