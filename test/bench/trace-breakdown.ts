/**
 * Where a request's time goes: runs the edge, the renderer and the three analyzers in this process
 * with an in-memory span exporter, sends each endpoint a few times against a bench fixture page, and
 * prints the span tree of the median request with each span's duration and its start offset.
 *
 *   node test/bench/trace-breakdown.ts [site=bench-saas] [rounds=5] [paths=/screenshot,/classify,/enrich]
 *
 * One process means one event loop: the classifier's inference (~70 ms of synchronous wasm) holds the
 * renderer's and the edge's callbacks while it runs, so under /enrich the render spans it overlaps
 * (the capture, the logos) read longer than in the stack of separate processes (2026-11-26: the
 * capture 127 ms under /enrich against 63 ms under /brand here; /enrich and /brand p50 538 and 562 ms
 * in the stack). For /enrich's overlap, run the analyzers as the stack does, each its own process:
 *
 *   ANALYZERS=processes node test/bench/trace-breakdown.ts bench-saas 7 /enrich
 *
 * (their own `process` spans are then not collected; the edge's `request` spans show when each ran).
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { startTestTelemetry } from '@enrich/shared/telemetry';
import { createLogger } from '@enrich/shared/runtime';
import { startNatsServer } from '../support/nats-server.ts';
import { startAnalyzers } from '../support/analyzers.ts';
import { serveStatic } from '../../deploy/local/static-site.ts';
import { REPO_ROOT } from '../../deploy/local/stack.ts';
import { startEdge } from '../support/edge-harness.ts';
import { startRenderer } from '../../services/renderer/src/service.ts';
import { loadRendererConfig } from '../../services/renderer/src/config.ts';

const site = process.argv[2] ?? 'bench-saas';
const rounds = Number(process.argv[3] ?? 5);
const paths = (process.argv[4] ?? '/screenshot,/classify,/enrich').split(',');
const telemetry = startTestTelemetry('trace-breakdown');
const log = createLogger('trace-breakdown', 'silent');

// A site that is not there would answer 404s until the analyzers' readiness check gave up.
const siteDir = join(REPO_ROOT, 'test/fixtures/sites', site);
if (!existsSync(siteDir)) throw new Error(`no fixture site ${site} (test/fixtures/sites: ${readdirSync(join(REPO_ROOT, 'test/fixtures/sites')).join(', ')})`);
const nats = await startNatsServer();
const pages = await serveStatic(siteDir, { host: '127.0.0.2' });
const shots = mkdtempSync(join(tmpdir(), 'breakdown-'));
const edge = await startEdge(nats.url, { store: { kind: 'kv', name: `bd_${randomUUID().slice(0, 8)}` }, screenshotDir: shots });
const base = await edge.app.listen({ port: 0, host: '127.0.0.1' });
const renderer = await startRenderer({
  nc: edge.nc,
  config: loadRendererConfig({ ALLOW_PRIVATE_TARGETS: '127.0.0.2/32', SCREENSHOT_DIR: shots, ASSETS_BASE_URL: `${base}/assets` }),
  log,
});
const { key } = await edge.createKey({ credits: 1_000_000, rateLimit: 1_000_000 });
// ANALYZERS=processes: the three analyzers as the stack runs them, each its own process (their own
// spans are then not collected: the edge's `analyze.* request` spans still show when each answered).
const analyzers = process.env.ANALYZERS === 'processes' ? await spawnAnalyzers(nats.url) : await startAnalyzers(edge.nc, log);

async function spawnAnalyzers(natsUrl: string): Promise<{ stop(): Promise<void> }> {
  const children = ['brand', 'company', 'classifier'].map((service) =>
    spawn(process.execPath, [join(REPO_ROOT, 'services', service, 'src', 'main.ts')], {
      cwd: REPO_ROOT,
      env: { ...process.env, NATS_URL: natsUrl, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
  const stop = async (): Promise<void> => {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
  };
  // Ready when each answers: a /classify, /company and /brand through the edge succeed. If they never
  // do, the children are stopped before the error ends this process (they would outlive it).
  try {
    for (const path of ['/classify', '/company', '/brand']) {
      for (let i = 0; ; i++) {
        const res = await fetch(`${base}${path}?url=${encodeURIComponent(pages.origin + '/')}`, { headers: { 'x-api-key': key } });
        await res.arrayBuffer();
        if (res.ok) break;
        if (i > 60) throw new Error(`${path} never answered: ${res.status}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  } catch (err) {
    await stop();
    await nats.stop();
    throw err;
  }
  return { stop };
}

const ms = (s: ReadableSpan): number => s.duration[0] * 1e3 + s.duration[1] / 1e6;
const startMs = (s: ReadableSpan): number => s.startTime[0] * 1e3 + s.startTime[1] / 1e6;

/** Span attributes that say what a phase did or skipped. */
const SHOWN = [
  'render.skipped',
  'scroll',
  'settle.loaded_ms',
  'settle.after_load_ms',
  'settle.rounds',
  'settle.offscreen_images',
  'layers',
  'from_capture',
  'spare',
  'logos.from',
  'logos.begun_before_capture',
];

function printTree(spans: ReadableSpan[]): void {
  const root = spans.find((s) => !spans.some((p) => p.spanContext().spanId === s.parentSpanContext?.spanId))!;
  const t0 = startMs(root);
  const walk = (s: ReadableSpan, depth: number): void => {
    const said = SHOWN.filter((k) => s.attributes[k] !== undefined).map((k) => `${k}=${String(s.attributes[k])}`);
    console.log(
      `  ${'  '.repeat(depth)}${s.name.padEnd(40 - depth * 2)} ${ms(s).toFixed(0).padStart(6)} ms   @${(startMs(s) - t0).toFixed(0).padStart(5)} ms${said.length ? `   ${said.join(' ')}` : ''}`,
    );
    spans
      .filter((c) => c.parentSpanContext?.spanId === s.spanContext().spanId)
      .sort((a, b) => startMs(a) - startMs(b))
      .forEach((c) => walk(c, depth + 1));
  };
  walk(root, 0);
}

for (const path of paths) {
  const runs: ReadableSpan[][] = [];
  for (let i = 0; i < rounds + 1; i++) {
    telemetry.exporter.reset();
    const res = await fetch(`${base}${path}?url=${encodeURIComponent(pages.origin + '/')}`, { headers: { 'x-api-key': key } });
    await res.arrayBuffer();
    await telemetry.forceFlush();
    if (i > 0) runs.push(telemetry.exporter.getFinishedSpans().slice()); // the first round warms up
  }
  runs.sort((a, b) => Math.max(...a.map(ms)) - Math.max(...b.map(ms)));
  console.log(`\n${path} on ${site}: median of ${rounds} requests`);
  printTree(runs[Math.floor(runs.length / 2)]!);
  printSpanMedians(runs);
}

/**
 * Each render phase's own median and 90th percentile over all requests: the median request's tree
 * shows one request, and a phase that is sometimes long (a scroll that waits for loads it started)
 * shows there as it happened to be.
 */
function printSpanMedians(runs: ReadableSpan[][]): void {
  const byName = new Map<string, number[]>();
  for (const spans of runs) {
    const total = new Map<string, number>();
    for (const s of spans) if (s.name.startsWith('render.') || s.name.startsWith('analyze.')) total.set(s.name, (total.get(s.name) ?? 0) + ms(s));
    for (const [name, d] of total) byName.set(name, [...(byName.get(name) ?? []), d]);
  }
  const at = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
  console.log(`  per phase over ${runs.length} requests, p50 / p90 ms (a phase that ran twice counts its sum):`);
  for (const [name, xs] of byName) console.log(`    ${name.padEnd(34)} ${at(xs, 0.5).toFixed(0).padStart(5)} / ${at(xs, 0.9).toFixed(0).padStart(5)}`);
}

await analyzers.stop();
await renderer.stop();
await edge.close();
await pages.close();
await nats.stop();
await telemetry.shutdown();
