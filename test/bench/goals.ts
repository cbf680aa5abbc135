/**
 * The performance goals (issue 14) read off one bench run, each with its measured value, its goal
 * and whether it is met. A goal the run has no figure for (a path not measured, memory not sampled)
 * says so instead of passing or failing.
 */
import type { PeakMemory } from './memory.ts';
import type { BenchResults, LevelResult } from './report.ts';
import { ratio } from './stats.ts';

export interface Goal {
  what: string;
  /** The measured figure, formatted with its unit; 'n/a' when the run has none. */
  measured: string;
  goal: string;
  met: boolean | null;
  /**
   * A second reading of the same figure, shown beside it, not judged: for a ratio measured in
   * alternating blocks (paired.ts), the same ratio read off the levels, where the two sides ran
   * minutes apart; for a refusal path read by the paced generator (paced-load.ts), autocannon's.
   */
  aside?: string;
}

const at = (rows: readonly LevelResult[], c: number): LevelResult | undefined => rows.find((r) => r.concurrency === c);
const maxThroughput = (rows: readonly LevelResult[]): number | null => (rows.length ? Math.max(...rows.map((r) => r.throughput)) : null);

const times = (value: number | null): string => (value === null ? 'n/a' : `${value.toFixed(2)}x`);

/**
 * A ratio goal judged on the alternating blocks' figure when the run has them (`paired`), with the
 * levels' figure beside it; on the levels' figure otherwise (a run with BENCH_PAIRED_BLOCKS=0, or an
 * older bench.json).
 */
function ratioGoal(what: string, levels: number | null, paired: number | null | undefined, op: '<=' | '>=', limit: number): Goal {
  const value = paired === undefined ? levels : paired;
  return {
    what,
    measured: times(value),
    goal: `${op === '<=' ? '≤' : '≥'} ${limit.toFixed(2)}x`,
    met: value === null ? null : op === '<=' ? value <= limit : value >= limit,
    ...(paired === undefined ? {} : { aside: times(levels) }),
  };
}

function memoryGoal(what: string, peak: PeakMemory | undefined, kind: 'RSS' | 'PSS', limitMb: number, strict: boolean): Goal {
  const mb = peak ? (kind === 'RSS' ? peak.peakRssMb : peak.peakPssMb) : null;
  return {
    what,
    measured: mb ? `${Math.round(mb)} MB ${kind}` : 'n/a',
    goal: `${strict ? '<' : '≤'} ${limitMb} MB ${kind}`,
    met: mb ? (strict ? mb < limitMb : mb <= limitMb) : null,
  };
}

/** The renderer's peak over the phases at the highest concurrency (8 clients), else over the run. */
function rendererPeakUnderLoad(r: BenchResults): PeakMemory | undefined {
  if (!r.memory) return undefined;
  const top = Math.max(...r.screenshot.map((x) => x.concurrency), 0);
  const phases = Object.entries(r.memory.byPhase)
    .filter(([label]) => label.endsWith(` c=${top}`))
    .map(([, p]) => p['renderer'])
    .filter((p): p is PeakMemory => !!p);
  if (!phases.length) return r.memory.overall['renderer'];
  return phases.reduce((a, b) => (b.peakPssMb > a.peakPssMb ? b : a));
}

function refusalGoals(r: BenchResults): Goal[] {
  if (!r.edgeOverhead) return [];
  const { paths, steps } = r.edgeOverhead;
  const rate = Math.max(...steps.map((s) => s.targetRate), 0);
  const health = steps.find((s) => s.path === 'health' && s.targetRate === rate);
  return paths
    .filter((p) => p.refusal)
    .flatMap((p): Goal[] => {
      const s = steps.find((x) => x.path === p.name && x.targetRate === rate);
      if (!s || (!health && !s.floor)) return [{ what: `refusal \`${p.name}\` at ${rate} req/s`, measured: 'n/a', goal: '', met: null }];
      // The floor measured just before this step when the run has it, else the /health step of the run.
      const floorP99 = s.floor?.p99 ?? health!.latencyMs.p99;
      const delta = s.latencyMs.p99 - floorP99;
      const signed = (ms: number): string => `${ms >= 0 ? '+' : ''}${Math.round(ms * 10) / 10} ms`;
      // autocannon paces by the second: within 2% of the offered rate is holding it.
      const held = s.achievedRate >= rate * 0.98 && s.errors === 0 && s.expected === s.requests;
      const q = s.paced;
      if (q) {
        // Judged on the paced reading (paced-load.ts), autocannon's beside it.
        const pacedDelta = q.latencyMs.p99 - q.floorP99;
        return [
          {
            what: `refusal \`${p.name}\`: throughput at ${rate} req/s offered, paced`,
            measured: `${q.achievedRate} req/s`,
            goal: `${rate} req/s, all ${p.expectStatus}`,
            met: q.achievedRate >= rate * 0.98 && q.errors === 0 && q.expected === q.requests,
            aside: `${s.achievedRate} req/s${held ? '' : ', not all held'}`,
          },
          {
            what: `refusal \`${p.name}\`: p99 minus /health's p99, paced (${q.floorP99} ms, the two taking turns)`,
            measured: signed(pacedDelta),
            goal: '≤ 10 ms',
            met: pacedDelta <= 10,
            aside: `${signed(delta)} (autocannon, /health ${floorP99} ms)`,
          },
        ];
      }
      return [
        {
          what: `refusal \`${p.name}\`: throughput at ${rate} req/s offered`,
          measured: `${s.achievedRate} req/s`,
          goal: `${rate} req/s, all ${p.expectStatus}`,
          met: held,
        },
        {
          what: `refusal \`${p.name}\`: p99 minus /health's p99 (${floorP99} ms${s.floor ? ', measured just before it' : ''})`,
          measured: signed(delta),
          goal: '≤ 10 ms',
          met: delta <= 10,
        },
      ];
    });
}

export function benchGoals(r: BenchResults): Goal[] {
  const vs = (c: number) => r.screenshotVsPlaywright.find((x) => x.concurrency === c)?.p50 ?? null;
  const enrich1 = at(r.enrich, 1);
  const shot1 = at(r.screenshot, 1);
  const enrichSat = maxThroughput(r.enrich);
  const bareSat = maxThroughput(r.playwrightBaseline);
  const peaks = r.memory?.overall ?? {};
  const p = r.paired ?? undefined;
  return [
    ratioGoal('/screenshot ÷ bare Playwright, p50 at concurrency 1', vs(1), p && ratio(p.c1.screenshot.p50, p.c1.bare.p50), '<=', 1.1),
    ratioGoal('/screenshot ÷ bare Playwright, p50 at concurrency 4', vs(4), p && ratio(p.c4.screenshot.p50, p.c4.bare.p50), '<=', 1.0),
    ratioGoal(
      '/enrich ÷ /screenshot, p50 at concurrency 1',
      enrich1 && shot1 ? ratio(enrich1.p50, shot1.p50) : null,
      p && ratio(p.c1.enrich.p50, p.c1.screenshot.p50),
      '<=',
      1.3,
    ),
    ratioGoal(
      '/enrich throughput at saturation ÷ bare Playwright shots/s at saturation',
      enrichSat && bareSat ? ratio(enrichSat, bareSat) : null,
      p && ratio(p.saturation.enrich.throughput, p.saturation.bare.throughput),
      '>=',
      0.85,
    ),
    memoryGoal(`renderer + Chromium, peak at ${Math.max(...r.screenshot.map((x) => x.concurrency), 0)} clients`, rendererPeakUnderLoad(r), 'PSS', 800, false),
    memoryGoal('edge', peaks['edge'], 'RSS', 150, true),
    memoryGoal('brand', peaks['brand'], 'PSS', 150, true),
    memoryGoal('company', peaks['company'], 'PSS', 150, true),
    memoryGoal('classifier', peaks['classifier'], 'PSS', 300, true),
    ...refusalGoals(r),
  ];
}

/** The goals as a table; a column for the levels' figure when any ratio was judged on alternating blocks. */
export function goalsTable(goals: readonly Goal[]): string[] {
  const mark = (m: boolean | null): string => (m === null ? '–' : m ? '✔' : '✘');
  if (!goals.some((g) => g.aside !== undefined)) {
    return ['| goal | measured | target | met |', '|---|---:|---:|:---:|', ...goals.map((g) => `| ${g.what} | ${g.measured} | ${g.goal} | ${mark(g.met)} |`)];
  }
  return [
    '| goal | measured | second reading, not judged | target | met |',
    '|---|---:|---:|---:|:---:|',
    ...goals.map((g) => `| ${g.what} | ${g.measured} | ${g.aside ?? ''} | ${g.goal} | ${mark(g.met)} |`),
  ];
}
