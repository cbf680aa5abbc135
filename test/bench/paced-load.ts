/**
 * An open-loop load generator that paces requests evenly (wrk2's model), run in its own process:
 *   .tools/node/bin/node test/bench/paced-load.ts <url> --rate=1000 --duration=5 [--connections=32]
 *     [--header=name:value] [--timeout=10] [--samples]
 * Request i is due at start + i / rate, whatever happened to the ones before it; its latency is read
 * from that due time to the end of its answer, so a stall of the server (or a queue for a free
 * connection) counts for every request it delayed (no coordinated omission). Prints one JSON line.
 *
 * Why beside autocannon (edge-overhead.ts): autocannon's `-R` gives each connection a quota per
 * second, and a connection sends its quota back to back as soon as the second starts (its
 * httpClient.js resets the count on a 1 s interval), so at 1000 req/s the edge sees its connections
 * saturating it for the first part of every second and idle for the rest. Its p99 there reads how
 * long the edge takes to drain 40 connections' back-to-back requests, not the latency of requests
 * arriving at 1000 a second. Real clients are not synchronised to the second.
 */
import { Agent, request } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { quantile } from './stats.ts';

export interface PacedResult {
  rate: number;
  durationS: number;
  connections: number;
  /** Requests due in the run; sent, answered, and answered per second of the run's wall time. */
  due: number;
  answered: number;
  achievedRate: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** From each request's due time to the end of its answer (coordinated omission corrected). */
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** From the moment the request was handed to the HTTP client to the end of its answer. */
  serviceMs: { p50: number; p99: number };
  /** How late the generator itself handed requests over (timer lateness), p99 and max: its own floor. */
  lateMs: { p99: number; max: number };
  /** Each answered request's latency (ms, from its due time), when asked for: to pool several runs. */
  samples?: number[];
}

/** A percentile of sorted latencies (stats.ts `quantile`, interpolating), to 0.01 ms. */
export const pct = (sorted: readonly number[], q: number): number => Math.round(quantile(sorted, q) * 100) / 100;

export function pacedLoad(
  url: string,
  opts: { rate: number; durationS: number; connections: number; headers?: Record<string, string>; timeoutS?: number; samples?: boolean },
): Promise<PacedResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.connections });
  const target = new URL(url);
  const due = Math.round(opts.rate * opts.durationS);
  const interval = 1000 / opts.rate;
  const timeoutMs = (opts.timeoutS ?? 10) * 1000;
  const latency: number[] = [];
  const service: number[] = [];
  const late: number[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  let timeouts = 0;
  let finished = 0;
  let next = 0;
  // A little ahead, so the first due times are not already past when the loop starts.
  const start = performance.now() + 20;

  return new Promise((resolve) => {
    const done = (): void => {
      if (++finished < due) return;
      agent.destroy();
      const wallS = (performance.now() - start) / 1000;
      const sorted = [...latency].sort((a, b) => a - b);
      const serviceSorted = [...service].sort((a, b) => a - b);
      const lateSorted = [...late].sort((a, b) => a - b);
      resolve({
        rate: opts.rate,
        durationS: opts.durationS,
        connections: opts.connections,
        due,
        answered: sorted.length,
        achievedRate: Math.round(sorted.length / wallS),
        errors,
        timeouts,
        statusCodes,
        latencyMs: {
          p50: pct(sorted, 0.5),
          p90: pct(sorted, 0.9),
          p99: pct(sorted, 0.99),
          max: pct(sorted, 1),
          mean: sorted.length ? Math.round((sorted.reduce((a, b) => a + b, 0) / sorted.length) * 100) / 100 : Number.NaN,
        },
        serviceMs: { p50: pct(serviceSorted, 0.5), p99: pct(serviceSorted, 0.99) },
        lateMs: { p99: pct(lateSorted, 0.99), max: pct(lateSorted, 1) },
        ...(opts.samples ? { samples: latency.map((ms) => Math.round(ms * 100) / 100) } : {}),
      });
    };
    const send = (dueAt: number): void => {
      const handedAt = performance.now();
      late.push(handedAt - dueAt);
      const req = request(
        { agent, host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, headers: opts.headers ?? {} },
        (res) => {
          res.resume();
          res.once('end', () => {
            const end = performance.now();
            latency.push(end - dueAt);
            service.push(end - handedAt);
            const code = String(res.statusCode ?? 0);
            statusCodes[code] = (statusCodes[code] ?? 0) + 1;
            done();
          });
        },
      );
      req.setTimeout(timeoutMs, () => {
        timeouts++;
        req.destroy(new Error('timeout'));
      });
      req.once('error', () => {
        errors++;
        done();
      });
      req.end();
    };
    const tick = (): void => {
      const now = performance.now();
      while (next < due && start + next * interval <= now) send(start + next++ * interval);
      if (next < due) setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
    };
    setTimeout(tick, Math.max(0, start - performance.now()));
  });
}

/** Runs the generator in its own process (so it does not share an event loop with the caller). */
export async function pacedLoadInChild(
  url: string,
  opts: { rate: number; durationS: number; connections: number; headers?: Record<string, string>; samples?: boolean },
): Promise<PacedResult> {
  const { spawn } = await import('node:child_process');
  const args = [fileURLToPath(import.meta.url), url, `--rate=${opts.rate}`, `--duration=${opts.durationS}`, `--connections=${opts.connections}`];
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push(`--header=${k}:${v}`);
  if (opts.samples) args.push('--samples');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => {
      const line = out.trim().split('\n').pop();
      if (code !== 0 || !line?.startsWith('{')) return reject(new Error(`paced-load failed (${code}): ${err.slice(-2000)}`));
      resolve(JSON.parse(line) as PacedResult);
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const url = process.argv[2];
  const flag = (name: string): string[] =>
    process.argv
      .slice(3)
      .filter((a) => a.startsWith(`--${name}=`))
      .map((a) => a.slice(name.length + 3));
  const num = (name: string, def: number): number => {
    const v = Number(flag(name)[0] ?? def);
    if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
    return v;
  };
  if (!url) {
    process.stderr.write('usage: paced-load.ts <url> --rate=N --duration=S [--connections=C] [--header=name:value] [--timeout=S]\n');
    process.exit(2);
  }
  const headers = Object.fromEntries(
    flag('header').map((h) => {
      const i = h.indexOf(':');
      return [h.slice(0, i).trim(), h.slice(i + 1).trim()];
    }),
  );
  const result = await pacedLoad(url, {
    rate: num('rate', 100),
    durationS: num('duration', 5),
    connections: num('connections', 32),
    headers,
    timeoutS: num('timeout', 10),
    samples: process.argv.includes('--samples'),
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
