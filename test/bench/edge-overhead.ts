/**
 * The edge's own cost under a load generator: autocannon (its CLI, in its own process, so the load
 * generator does not share an event loop with the benchmark) at fixed request rates against paths that
 * do no rendering. autocannon does not correct for coordinated omission and paces by the second, so
 * its percentiles are a floor, and a rate the edge cannot keep up with shows as lower achieved req/s.
 * Each refusal path's top-rate step is read again, with its floor, by an evenly paced open-loop
 * generator (paced-load.ts): what the refusal goal is judged on.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { pacedLoadInChild, pct, type PacedResult } from './paced-load.ts';

export interface OverheadPath {
  name: string;
  /** What the path exercises, said in the report. */
  exercises: string;
  path: string;
  authenticated: boolean;
  /** The key this path sends (default: the bench key), e.g. a key whose rate limit is spent. */
  apiKey?: string;
  expectStatus: number;
  /** A refusal the issue sets a goal for: 1000 req/s with p99 within 10 ms of /health's p99. */
  refusal?: boolean;
}

export interface OverheadStep {
  path: string;
  targetRate: number;
  durationS: number;
  connections: number;
  achievedRate: number;
  requests: number;
  /** Answers with the expected status / with another status / transport errors and timeouts. */
  expected: number;
  unexpected: Record<string, number>;
  errors: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** Requests the edge had seen from this client in the minute before the step (rate-limit window size). */
  windowEntriesBefore: number;
  /**
   * A refusal path's step at the highest rate: the floor path (/health) measured at the same rate just
   * before it, so the goal compares the two within seconds of each other, not with a /health step a
   * minute earlier (its p99 moved between 10 and 23 ms from run to run, 2026-11-27).
   */
  floor?: { path: string; p99: number; achievedRate: number };
  /**
   * The same refusal step read by the paced generator (paced-load.ts: requests due evenly at the rate,
   * latency from the due time), the floor path and this path taking turns, pooled over the rounds.
   * autocannon sends each connection's per-second quota back to back at the start of every second, so
   * its p99 at 1000 req/s is the time the edge takes to drain those bursts; the paced reading is the
   * latency of requests arriving at that rate, and the one the refusal goal is judged on.
   */
  paced?: PacedStep;
}

export interface PacedStep {
  /** Rounds of floor-then-path, each `durationS` long; the percentiles pool every round's requests. */
  rounds: number;
  /** Each round's p99, the floor's and the path's: how much one 5 s reading moves. */
  roundP99: { floor: number[]; path: number[] };
  floorP99: number;
  floorAchievedRate: number;
  achievedRate: number;
  requests: number;
  expected: number;
  errors: number;
  latencyMs: { p50: number; p99: number; max: number };
}

interface AutocannonJson {
  requests: { average: number; total: number; sent: number };
  latency: { p50: number; p90: number; p99: number; max: number; average: number };
  errors: number;
  timeouts: number;
  statusCodeStats?: Record<string, { count: number }>;
  duration: number;
}

const require = createRequire(import.meta.url);

export function autocannonVersion(): string {
  return (require('autocannon/package.json') as { version: string }).version;
}

function runAutocannon(args: string[]): Promise<AutocannonJson> {
  const cli = require.resolve('autocannon/autocannon.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => {
      const line = out
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .pop();
      if (code !== 0 || !line) return reject(new Error(`autocannon failed (${code}): ${err.slice(-2000)}`));
      resolve(JSON.parse(line) as AutocannonJson);
    });
  });
}

export async function measureOverhead(
  baseUrl: string,
  apiKey: string,
  paths: readonly OverheadPath[],
  rates: readonly number[],
  opts: {
    durationS: number;
    log: (line: string) => void;
    floor?: OverheadPath;
    /** Paced floor-then-path rounds per refusal path (2). */
    pacedRounds?: number;
  },
): Promise<OverheadStep[]> {
  const steps: OverheadStep[] = [];
  const top = Math.max(...rates);
  // Every request from here counts in the edge's per-IP window (and the key's): remember when and how many.
  const sent: Array<{ at: number; n: number }> = [];
  for (const p of paths) {
    // One unrecorded second at the lowest rate: connections opened, code paths compiled.
    await runAutocannon([
      '-j',
      '-n',
      '-c',
      '4',
      '-d',
      '1',
      '-R',
      String(Math.min(...rates)),
      ...(p.authenticated ? ['-H', `x-api-key=${p.apiKey ?? apiKey}`] : []),
      `${baseUrl}${p.path}`,
    ]);
    if (p.authenticated) sent.push({ at: Date.now(), n: Math.min(...rates) });
    for (const rate of rates) {
      // Enough connections that a slow answer does not throttle the offered rate below the target.
      const connections = Math.min(64, Math.max(8, Math.ceil(rate / 25)));
      const args = ['-j', '-n', '-c', String(connections), '-d', String(opts.durationS), '-R', String(rate), '-t', '10'];
      let floor: OverheadStep['floor'];
      if (p.refusal && rate === top && opts.floor && !opts.floor.authenticated) {
        const f = await runAutocannon([...args, `${baseUrl}${opts.floor.path}`]);
        floor = { path: opts.floor.name, p99: f.latency.p99, achievedRate: Math.round(f.requests.average) };
        opts.log(
          `  ${opts.floor.name.padEnd(14)} ${String(rate).padStart(5)} req/s offered, ${String(floor.achievedRate).padStart(5)} achieved: p99 ${floor.p99} ms (the floor, just before ${p.name})`,
        );
      }
      if (p.authenticated) args.push('-H', `x-api-key=${p.apiKey ?? apiKey}`);
      args.push(`${baseUrl}${p.path}`);
      const started = Date.now();
      const windowEntriesBefore = p.authenticated ? sent.filter((s) => s.at > started - 60_000).reduce((a, s) => a + s.n, 0) : 0;
      const r = await runAutocannon(args);
      const codes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
      const expected = codes[String(p.expectStatus)] ?? 0;
      const unexpected = Object.fromEntries(Object.entries(codes).filter(([k]) => k !== String(p.expectStatus)));
      if (p.authenticated) sent.push({ at: Date.now(), n: r.requests.total });
      const step: OverheadStep = {
        path: p.name,
        targetRate: rate,
        durationS: opts.durationS,
        connections,
        achievedRate: Math.round(r.requests.average),
        requests: r.requests.total,
        expected,
        unexpected,
        errors: r.errors + r.timeouts,
        latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max, mean: Math.round(r.latency.average * 100) / 100 },
        windowEntriesBefore,
        ...(floor ? { floor } : {}),
      };
      opts.log(
        `  ${p.name.padEnd(14)} ${String(rate).padStart(5)} req/s offered, ${String(step.achievedRate).padStart(5)} achieved: p50 ${step.latencyMs.p50} ms, p99 ${step.latencyMs.p99} ms, max ${step.latencyMs.max} ms` +
          (Object.keys(unexpected).length || step.errors ? `  (other statuses ${JSON.stringify(unexpected)}, errors ${step.errors})` : ''),
      );
      steps.push(step);
      if (floor && opts.floor) {
        // Floor and path take turns, `pacedRounds` times, and each side's requests are pooled: one 5 s
        // reading's p99 is its worst stall (a GC pause, the scheduler), which moved it by 10-30 ms from
        // reading to reading on the same code (2026-11-27); the pooled p99 is that of 10 000 requests.
        // Two rounds keep the rate-limited path within the minute its spent key stays refused (its
        // warm-up second spends it; a third round could see one request admitted again).
        const load = { rate, durationS: opts.durationS, connections, samples: true };
        const headers: Record<string, string> = p.authenticated ? { 'x-api-key': p.apiKey ?? apiKey } : {};
        const rounds = opts.pacedRounds ?? 2;
        const floorRuns: PacedResult[] = [];
        const pathRuns: PacedResult[] = [];
        for (let i = 0; i < rounds; i++) {
          floorRuns.push(await pacedLoadInChild(`${baseUrl}${opts.floor.path}`, load));
          const q = await pacedLoadInChild(`${baseUrl}${p.path}`, { ...load, headers });
          if (p.authenticated) sent.push({ at: Date.now(), n: q.answered });
          pathRuns.push(q);
        }
        const pooled = (runs: readonly PacedResult[]) => [...runs.flatMap((r) => r.samples ?? [])].sort((a, b) => a - b);
        const floorAll = pooled(floorRuns);
        const pathAll = pooled(pathRuns);
        const codes = (status: number) => pathRuns.reduce((a, r) => a + (r.statusCodes[String(status)] ?? 0), 0);
        step.paced = {
          rounds,
          roundP99: { floor: floorRuns.map((r) => r.latencyMs.p99), path: pathRuns.map((r) => r.latencyMs.p99) },
          floorP99: pct(floorAll, 0.99),
          floorAchievedRate: Math.min(...floorRuns.map((r) => r.achievedRate)),
          achievedRate: Math.min(...pathRuns.map((r) => r.achievedRate)),
          requests: pathRuns.reduce((a, r) => a + r.due, 0),
          expected: codes(p.expectStatus),
          errors: pathRuns.reduce((a, r) => a + r.errors, 0),
          latencyMs: { p50: pct(pathAll, 0.5), p99: pct(pathAll, 0.99), max: pct(pathAll, 1) },
        };
        const q = step.paced;
        opts.log(
          `  ${p.name.padEnd(14)} ${String(rate).padStart(5)} req/s paced, ${rounds} x ${opts.durationS} s, ${String(q.achievedRate).padStart(5)} achieved (lowest round): p50 ${q.latencyMs.p50} ms, p99 ${q.latencyMs.p99} ms (rounds ${q.roundP99.path.join(', ')}), max ${q.latencyMs.max} ms; ${opts.floor.name} in turns: p99 ${q.floorP99} ms (rounds ${q.roundP99.floor.join(', ')})` +
            (q.expected !== q.requests ? `  (${q.expected} of ${q.requests} answered ${p.expectStatus}, errors ${q.errors})` : ''),
        );
      }
    }
  }
  return steps;
}
