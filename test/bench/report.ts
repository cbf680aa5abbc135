/**
 * The benchmark's Markdown summary and its latency chart: an SVG written by hand (no chart library)
 * and the same numbers as an ASCII chart inside the Markdown, so the terminal shows it too.
 */
import type { MachineInfo } from './machine.ts';
import type { PeakMemory, MemoryReport } from './memory.ts';
import type { OverheadPath, OverheadStep } from './edge-overhead.ts';
import type { PairedResult } from './paired.ts';
import type { SeriesSummary } from './stats.ts';
import { benchGoals, goalsTable } from './goals.ts';

export interface LevelResult extends SeriesSummary {
  concurrency: number;
  /** CPU milliseconds per request by process tree over the level (test/bench/cpu.ts); absent when the processes are not known here. */
  cpuMs?: Record<string, number>;
}

export interface BenchResults {
  machine: MachineInfo;
  setup: Record<string, string | number | boolean>;
  sites: Array<{ name: string; url: string; description: string }>;
  screenshot: LevelResult[];
  enrich: LevelResult[];
  playwrightBaseline: LevelResult[];
  launchPerRequest: LevelResult[];
  /** ours / bare Playwright per concurrency: p50 and p95 latency, and throughput. */
  screenshotVsPlaywright: Array<{ concurrency: number; p50: number | null; p95: number | null; throughput: number | null }>;
  screenshotVsLaunchPerRequest: Array<{ concurrency: number; p50: number | null; p95: number | null; throughput: number | null }>;
  enrichVsSequential: {
    rounds: number;
    enrich: SeriesSummary;
    sequential: SeriesSummary;
    /** Per call of the sequence: /brand, /company, /classify. */
    parts: Record<string, SeriesSummary>;
    p50Ratio: number | null;
    meanRatio: number | null;
  };
  edgeOverhead: { paths: OverheadPath[]; steps: OverheadStep[] } | null;
  /** The goal ratios measured with the sides taking turns (paired.ts); null: not run. */
  paired?: PairedResult | null;
  /** The same system with more renderer processes, at the highest concurrency (null: not run). */
  scaleOut: { renderers: number; screenshot: LevelResult; enrich: LevelResult } | null;
  memory: MemoryReport | null;
  durationS: number;
  /** 1-minute load average when the run started and ended: other work on the machine shows here. */
  loadAverage: { start: number; end: number };
}

export interface ChartSeries {
  label: string;
  color: string;
  dashed?: boolean;
  points: Array<{ x: number; y: number }>;
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A step of 1, 2 or 5 times a power of ten, so that about `ticks` steps cover `max`. */
export function niceStep(max: number, ticks: number): number {
  const raw = max / Math.max(1, ticks);
  const pow = 10 ** Math.floor(Math.log10(raw || 1));
  for (const m of [1, 2, 5, 10]) if (m * pow >= raw) return m * pow;
  return 10 * pow;
}

/** Latency (y, ms) against concurrency (x, evenly spaced categories), one polyline per series. */
export function latencyChartSvg(title: string, xs: readonly number[], series: readonly ChartSeries[]): string {
  const W = 760;
  const H = 420;
  const m = { l: 70, r: 200, t: 40, b: 50 };
  const pw = W - m.l - m.r;
  const ph = H - m.t - m.b;
  const maxY = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p.y)).filter(Number.isFinite));
  const step = niceStep(maxY, 6);
  const top = Math.ceil(maxY / step) * step;
  const xAt = (x: number): number => m.l + (xs.length <= 1 ? pw / 2 : (xs.indexOf(x) / (xs.length - 1)) * pw);
  const yAt = (y: number): number => m.t + ph - (y / top) * ph;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
  );
  out.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  out.push(`<text x="${m.l}" y="24" font-size="15" font-weight="bold">${esc(title)}</text>`);
  for (let v = 0; v <= top + 1e-9; v += step) {
    const y = yAt(v).toFixed(1);
    out.push(`<line x1="${m.l}" y1="${y}" x2="${m.l + pw}" y2="${y}" stroke="#e5e7eb"/>`);
    out.push(
      `<text x="${m.l - 8}" y="${y}" text-anchor="end" dominant-baseline="middle" fill="#374151">${v === 0 ? '0' : v >= 1000 ? `${(v / 1000).toFixed(v % 1000 ? 1 : 0)} s` : `${v} ms`}</text>`,
    );
  }
  for (const x of xs) {
    out.push(`<line x1="${xAt(x)}" y1="${m.t + ph}" x2="${xAt(x)}" y2="${m.t + ph + 5}" stroke="#374151"/>`);
    out.push(`<text x="${xAt(x)}" y="${m.t + ph + 20}" text-anchor="middle" fill="#374151">${x}</text>`);
  }
  out.push(`<text x="${m.l + pw / 2}" y="${H - 10}" text-anchor="middle" fill="#111827">concurrent requests</text>`);
  out.push(`<line x1="${m.l}" y1="${m.t + ph}" x2="${m.l + pw}" y2="${m.t + ph}" stroke="#374151"/>`);
  series.forEach((s, i) => {
    const pts = s.points.filter((p) => Number.isFinite(p.y) && xs.includes(p.x));
    const dash = s.dashed ? ' stroke-dasharray="6 4"' : '';
    out.push(
      `<polyline fill="none" stroke="${s.color}" stroke-width="2"${dash} points="${pts.map((p) => `${xAt(p.x).toFixed(1)},${yAt(p.y).toFixed(1)}`).join(' ')}"/>`,
    );
    for (const p of pts) out.push(`<circle cx="${xAt(p.x).toFixed(1)}" cy="${yAt(p.y).toFixed(1)}" r="3" fill="${s.color}"/>`);
    const ly = m.t + 10 + i * 20;
    out.push(`<line x1="${W - m.r + 20}" y1="${ly}" x2="${W - m.r + 44}" y2="${ly}" stroke="${s.color}" stroke-width="2"${dash}/>`);
    out.push(`<text x="${W - m.r + 50}" y="${ly}" dominant-baseline="middle" fill="#111827">${esc(s.label)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/** One bar per (series, concurrency), scaled to the largest value: readable in a terminal. */
export function asciiChart(xs: readonly number[], series: readonly ChartSeries[], width = 50): string {
  const max = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p.y)).filter(Number.isFinite));
  const labelW = Math.max(...series.map((s) => s.label.length));
  const lines: string[] = [];
  for (const x of xs) {
    lines.push(`concurrency ${x}`);
    for (const s of series) {
      const y = s.points.find((p) => p.x === x)?.y;
      if (y === undefined || !Number.isFinite(y)) continue;
      const n = Math.max(1, Math.round((y / max) * width));
      lines.push(`  ${s.label.padEnd(labelW)} |${'#'.repeat(n)}${' '.repeat(width - n)} ${fmtMs(y)}`);
    }
  }
  return lines.join('\n');
}

export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

const fmtX = (r: number | null): string => (r === null ? 'n/a' : `${r.toFixed(2)}x`);

function levelTable(rows: readonly LevelResult[]): string[] {
  const out = ['| concurrency | requests | ok | p50 | p95 | p99 | mean | throughput (req/s) | errors |', '|---:|---:|---:|---:|---:|---:|---:|---:|---|'];
  for (const r of rows) {
    const errs = r.errors
      ? Object.entries(r.errorStatuses)
          .map(([k, v]) => `${v}x ${k === '0' ? 'no answer' : k}`)
          .join(', ')
      : '';
    out.push(
      `| ${r.concurrency} | ${r.requests} | ${r.ok} | ${fmtMs(r.p50)} | ${fmtMs(r.p95)} | ${fmtMs(r.p99)} | ${fmtMs(r.mean)} | ${r.throughput.toFixed(2)} | ${errs} |`,
    );
  }
  return out;
}

function memoryTable(peaks: Record<string, PeakMemory>): string[] {
  const out = ['| process tree | peak RSS (sum) | peak PSS (sum) | processes (max) |', '|---|---:|---:|---:|'];
  for (const [name, p] of Object.entries(peaks))
    out.push(`| ${name} | ${p.peakRssMb.toFixed(0)} MB | ${p.peakPssMb ? `${p.peakPssMb.toFixed(0)} MB` : 'n/a'} | ${p.maxProcesses} |`);
  return out;
}

/**
 * CPU milliseconds per request by process tree, each level that has them, with the throughput the
 * machine's cores could give at that cost (cores x 1000 / total) beside the throughput measured.
 */
export function cpuTable(series: ReadonlyArray<[string, readonly LevelResult[]]>, cores: number): string[] {
  const rows = series.flatMap(([label, levels]) => levels.filter((l) => l.cpuMs).map((l) => ({ label, l, cpu: l.cpuMs! })));
  if (!rows.length) return [];
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.cpu)))];
  const out = [
    `| what | concurrency | ${names.join(' | ')} | total | ceiling at ${cores} cores (req/s) | measured (req/s) |`,
    `|---|---:|${names.map(() => '---:|').join('')}---:|---:|---:|`,
  ];
  for (const { label, l, cpu } of rows) {
    const total = Object.values(cpu).reduce((a, b) => a + b, 0);
    out.push(
      `| ${label} | ${l.concurrency} | ${names.map((n) => (cpu[n] === undefined ? '–' : `${cpu[n]}`)).join(' | ')} | ${total} | ${total > 0 ? ((cores * 1000) / total).toFixed(2) : 'n/a'} | ${l.throughput.toFixed(2)} |`,
    );
  }
  return out;
}

export function chartSeries(r: BenchResults): ChartSeries[] {
  const pts = (rows: readonly LevelResult[], key: 'p50' | 'p95') => rows.map((x) => ({ x: x.concurrency, y: x[key] }));
  return [
    { label: '/enrich p50', color: '#7c3aed', points: pts(r.enrich, 'p50') },
    { label: '/enrich p95', color: '#7c3aed', dashed: true, points: pts(r.enrich, 'p95') },
    { label: '/screenshot p50', color: '#2563eb', points: pts(r.screenshot, 'p50') },
    { label: '/screenshot p95', color: '#2563eb', dashed: true, points: pts(r.screenshot, 'p95') },
    { label: 'launch per request p50', color: '#dc2626', points: pts(r.launchPerRequest, 'p50') },
    { label: 'bare Playwright p50', color: '#16a34a', points: pts(r.playwrightBaseline, 'p50') },
    { label: 'bare Playwright p95', color: '#16a34a', dashed: true, points: pts(r.playwrightBaseline, 'p95') },
  ];
}

export function renderMarkdown(r: BenchResults, chartFile: string): string {
  const m = r.machine;
  const L: string[] = [];
  L.push('# Benchmark', '');
  L.push(`Run ${m.startedAt} at commit ${m.gitCommit}, ${r.durationS.toFixed(0)} s in all. Numbers only, no thresholds.`, '');
  L.push(
    `- Machine: ${m.cores} cores, ${m.cpuModel}, ${m.memoryGb} GB RAM, ${m.kernel}; 1-minute load average ${r.loadAverage.start} at the start, ${r.loadAverage.end} at the end`,
  );
  L.push(`- Versions: Node ${m.node}; ${m.chromium}; playwright-core ${m.playwrightCore}; ${m.natsServer}; autocannon ${m.autocannon}`);
  L.push(
    `- Setup: ${Object.entries(r.setup)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}`,
  );
  L.push('- Pages (served on 127.0.0.2, self-contained, requests rotate over them):');
  for (const s of r.sites) L.push(`  - ${s.name}: ${s.description}`);
  L.push('');
  L.push('## Goals', '', 'Each figure beside its goal (issue 14), from this run; – where the run has no figure for it.', '');
  if (r.paired) {
    const p = r.paired;
    L.push(
      `The four ratios are judged on the alternating blocks (${p.blocks} blocks, the side that goes first rotating; test/bench/paired.ts): ` +
        `at concurrency 1 /screenshot, /enrich and bare shots take turns, ${p.c1.perBlock} requests each a block; at 4, /screenshot and bare shots, ${p.c4.perBlock} each; ` +
        `at ${p.saturation.concurrency}, /enrich and bare shots, ${p.saturation.perBlock} each. For these ratios the "second reading" is the same ratio read off the levels below, where the two sides ran minutes apart; for the refusals it is autocannon's reading (the goals are judged on the paced one, see "Edge overhead").`,
      '',
    );
  }
  L.push(...goalsTable(benchGoals(r)), '');
  if (r.paired) {
    const p = r.paired;
    const row = (what: string, x: SeriesSummary): string => `| ${what} | ${x.ok}/${x.requests} | ${x.p50} | ${x.p95} | ${x.throughput} |`;
    L.push(
      '| alternating blocks | ok | p50 ms | p95 ms | per second |',
      '|---|---:|---:|---:|---:|',
      row('c=1 /screenshot', p.c1.screenshot),
      row('c=1 /enrich', p.c1.enrich),
      row('c=1 bare Playwright', p.c1.bare),
      row('c=4 /screenshot', p.c4.screenshot),
      row('c=4 bare Playwright', p.c4.bare),
      row(`c=${p.saturation.concurrency} /enrich`, p.saturation.enrich),
      row(`c=${p.saturation.concurrency} bare Playwright`, p.saturation.bare),
      '',
    );
  }
  L.push('## Latency against concurrency', '');
  L.push(`![latency against concurrency](${chartFile})`, '');
  L.push(
    '```',
    asciiChart(
      r.enrich.map((x) => x.concurrency),
      chartSeries(r).filter((s) => !s.dashed),
    ),
    '```',
    '',
  );
  L.push('### /screenshot', '', ...levelTable(r.screenshot), '');
  L.push('### /enrich', '', ...levelTable(r.enrich), '');
  L.push(
    '### Bare Playwright on the same pages (warm browser; new context, goto until load, JPEG screenshot, close)',
    '',
    ...levelTable(r.playwrightBaseline),
    '',
  );
  L.push('### A browser launched per request (launch, goto, screenshot, quit)', '', ...levelTable(r.launchPerRequest), '');
  L.push('## Ratios', '');
  L.push('/screenshot against bare Playwright and against a browser per request (ours / theirs; latency below 1 and throughput above 1 favour us):', '');
  L.push(
    '| concurrency | p50 vs Playwright | p95 vs Playwright | throughput vs Playwright | p50 vs launch-per-request | p95 vs launch-per-request | throughput vs launch-per-request |',
    '|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const a of r.screenshotVsPlaywright) {
    const b = r.screenshotVsLaunchPerRequest.find((x) => x.concurrency === a.concurrency);
    L.push(
      `| ${a.concurrency} | ${fmtX(a.p50)} | ${fmtX(a.p95)} | ${fmtX(a.throughput)} | ${fmtX(b?.p50 ?? null)} | ${fmtX(b?.p95 ?? null)} | ${fmtX(b?.throughput ?? null)} |`,
    );
  }
  L.push('');
  const e = r.enrichVsSequential;
  L.push(`## /enrich against /brand + /company + /classify one after another`, '');
  L.push(`Same URL, one client, ${e.rounds} rounds alternating the two (${e.enrich.ok} /enrich and ${e.sequential.ok} sequences succeeded).`, '');
  L.push('| | p50 | p95 | mean |', '|---|---:|---:|---:|');
  L.push(`| /enrich | ${fmtMs(e.enrich.p50)} | ${fmtMs(e.enrich.p95)} | ${fmtMs(e.enrich.mean)} |`);
  L.push(`| /brand + /company + /classify | ${fmtMs(e.sequential.p50)} | ${fmtMs(e.sequential.p95)} | ${fmtMs(e.sequential.mean)} |`);
  for (const [name, s] of Object.entries(e.parts)) L.push(`| &nbsp;&nbsp;${name} alone | ${fmtMs(s.p50)} | ${fmtMs(s.p95)} | ${fmtMs(s.mean)} |`);
  L.push('', `/enrich / sequence: p50 ${fmtX(e.p50Ratio)}, mean ${fmtX(e.meanRatio)}.`, '');
  if (r.edgeOverhead) {
    L.push('## Edge overhead (no rendering)', '');
    for (const p of r.edgeOverhead.paths) L.push(`- \`${p.name}\` = \`GET ${p.path}\` (expects ${p.expectStatus}): ${p.exercises}`);
    L.push('', 'autocannon at a fixed offered rate; latency as autocannon measures it (client side, no coordinated-omission correction).', '');
    L.push(
      '| path | offered req/s | achieved req/s | requests | p50 | p90 | p99 | max | other statuses / errors | window entries before |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---|---:|',
    );
    for (const s of r.edgeOverhead.steps) {
      const other = [...Object.entries(s.unexpected).map(([k, v]) => `${v}x ${k}`), ...(s.errors ? [`${s.errors} errors`] : [])].join(', ');
      L.push(
        `| ${s.path} | ${s.targetRate} | ${s.achievedRate} | ${s.requests} | ${s.latencyMs.p50} ms | ${s.latencyMs.p90} ms | ${s.latencyMs.p99} ms | ${s.latencyMs.max} ms | ${other} | ${s.windowEntriesBefore} |`,
      );
    }
    L.push(
      '',
      '"window entries before": requests this client made in the minute before the step, i.e. about how many timestamps the per-IP and per-key sliding windows held when it started (the windows are stored as one KV value each).',
      '',
    );
    const paced = r.edgeOverhead.steps.filter((s) => s.paced);
    if (paced.length) {
      L.push(
        "Each refusal path at the top rate read again by the paced generator (test/bench/paced-load.ts, wrk2's model): requests due evenly at the rate, latency from each one's due time (coordinated omission corrected); the floor path and the refusal path take turns, and each side's requests are pooled over the rounds (one 5 s reading's p99 is its worst stall). autocannon sends each connection's per-second quota back to back at the start of every second, so its p99 there is the time to drain those bursts. The refusal goals are judged on this reading.",
        '',
        '| path | rate | rounds | achieved req/s (lowest round) | expected status | p50 | p99 | max | p99 per round | floor p99 | floor p99 per round | p99 − floor |',
        '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      );
      for (const s of paced) {
        const q = s.paced!;
        L.push(
          `| ${s.path} | ${s.targetRate} | ${q.rounds} | ${q.achievedRate} | ${q.expected}/${q.requests}${q.errors ? `, ${q.errors} errors` : ''} | ${q.latencyMs.p50} ms | ${q.latencyMs.p99} ms | ${q.latencyMs.max} ms | ${q.roundP99.path.join(', ')} | ${q.floorP99} ms | ${q.roundP99.floor.join(', ')} | ${(q.latencyMs.p99 - q.floorP99).toFixed(1)} ms |`,
        );
      }
      L.push('');
    }
  }
  if (r.scaleOut) {
    const top = r.scaleOut.screenshot.concurrency;
    const perRenderer = (x: LevelResult | undefined, n: number): string => (x ? (x.throughput / n).toFixed(2) : 'n/a');
    L.push(`## Scale-out: ${r.scaleOut.renderers} renderer processes`, '');
    L.push(
      `A second stack, identical but for ${r.scaleOut.renderers} renderer processes (each RENDER_CONCURRENCY as above), at concurrency ${top}. On this machine's cores the renderers share the CPU, so throughput per renderer shows what a second process adds here, not on a machine of its own.`,
      '',
    );
    L.push('| path | renderers | p50 | throughput (req/s) | per renderer |', '|---|---:|---:|---:|---:|');
    for (const [path, one, many] of [
      ['/screenshot', r.screenshot.find((x) => x.concurrency === top), r.scaleOut.screenshot],
      ['/enrich', r.enrich.find((x) => x.concurrency === top), r.scaleOut.enrich],
    ] as const) {
      if (one) L.push(`| ${path} | 1 | ${fmtMs(one.p50)} | ${one.throughput.toFixed(2)} | ${perRenderer(one, 1)} |`);
      L.push(`| ${path} | ${r.scaleOut.renderers} | ${fmtMs(many.p50)} | ${many.throughput.toFixed(2)} | ${perRenderer(many, r.scaleOut.renderers)} |`);
    }
    L.push('');
  }
  const cpu = cpuTable(
    [
      ['/screenshot', r.screenshot],
      ['/enrich', r.enrich],
      ['bare Playwright', r.playwrightBaseline],
    ],
    r.machine.cores,
  );
  if (cpu.length) {
    L.push('## CPU per request', '');
    L.push(
      "CPU milliseconds per request of each process tree over each level (user + system time from /proc, children that exited included; test/bench/cpu.ts). `bench` is the bench process itself: the fixture server and the /proc sampler on every row, the HTTP client on the API rows and the Playwright client on the bare baseline's (the Playwright client and egress proxy of the renderer are in `renderer`). With every core busy, cores x 1000 / total is the most requests a second the machine can give at that cost.",
      '',
      ...cpu,
      '',
    );
  }
  if (r.memory) {
    L.push('## Memory', '');
    L.push(
      'Sampled every 200 ms from /proc (VmRSS summed over each service process and all its descendants; PSS from smaps_rollup every second). RSS counts pages shared between Chromium processes once per process, so the RSS sum overstates; PSS splits shared pages and is the fairer total.',
      '',
    );
    L.push('Whole run:', '', ...memoryTable(r.memory.overall), '');
    const renderer = Object.entries(r.memory.byPhase)
      .map(([phase, p]) => ({ phase, p: p.renderer }))
      .filter((x) => x.p);
    if (renderer.length) {
      L.push('Renderer + Chromium by phase:', '', '| phase | peak RSS (sum) | peak PSS (sum) | processes (max) |', '|---|---:|---:|---:|');
      for (const { phase, p } of renderer)
        L.push(`| ${phase} | ${p!.peakRssMb.toFixed(0)} MB | ${p!.peakPssMb ? `${p!.peakPssMb.toFixed(0)} MB` : 'n/a'} | ${p!.maxProcesses} |`);
      L.push('');
    }
  } else {
    L.push('## Memory', '', 'Not measured: the stack was not started by this run (BENCH_BASE_URL given), so its processes are not known here.', '');
  }
  return `${L.join('\n')}\n`;
}
