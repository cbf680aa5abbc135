import { describe, expect, it } from 'vitest';
import type { OverheadStep } from './edge-overhead.ts';
import { benchGoals, goalsTable } from './goals.ts';
import type { PeakMemory } from './memory.ts';
import type { BenchResults, LevelResult } from './report.ts';

const level = (concurrency: number, p50: number, throughput: number): LevelResult => ({
  concurrency,
  requests: 12,
  ok: 12,
  errors: 0,
  errorStatuses: {},
  p50,
  p95: p50,
  p99: p50,
  mean: p50,
  max: p50,
  throughput,
  wallMs: 1000,
});
const peak = (rss: number, pss: number): PeakMemory => ({ peakRssMb: rss, peakPssMb: pss, maxProcesses: 1, samples: 10 });
const step = (path: string, p99: number, achievedRate: number, requests = 5000): OverheadStep => ({
  path,
  targetRate: 1000,
  durationS: 5,
  connections: 40,
  achievedRate,
  requests,
  expected: requests,
  unexpected: {},
  errors: 0,
  latencyMs: { p50: 1, p90: 2, p99, max: p99, mean: 1 },
  windowEntriesBefore: 0,
});

function results(): BenchResults {
  return {
    machine: {} as BenchResults['machine'],
    setup: {},
    sites: [],
    screenshot: [level(1, 500, 2), level(4, 900, 4), level(8, 1800, 4.4)],
    enrich: [level(1, 700, 1.4), level(4, 1500, 2.6), level(8, 3000, 2.7)],
    playwrightBaseline: [level(1, 400, 2.5), level(4, 1000, 4), level(8, 1900, 4.2)],
    launchPerRequest: [],
    screenshotVsPlaywright: [
      { concurrency: 1, p50: 1.25, p95: null, throughput: null },
      { concurrency: 4, p50: 0.9, p95: null, throughput: null },
    ],
    screenshotVsLaunchPerRequest: [],
    enrichVsSequential: {} as BenchResults['enrichVsSequential'],
    edgeOverhead: {
      paths: [
        { name: 'health', path: '/health', authenticated: false, expectStatus: 200, exercises: '' },
        { name: 'no-key', path: '/x', authenticated: false, expectStatus: 401, exercises: '', refusal: true },
        { name: 'refused-url', path: '/y', authenticated: true, expectStatus: 400, exercises: '', refusal: true },
        { name: 'bad-parameter', path: '/z', authenticated: true, expectStatus: 400, exercises: '' },
      ],
      steps: [step('health', 12, 1000), step('no-key', 20, 999), step('refused-url', 30, 600, 3000)],
    },
    scaleOut: null,
    memory: {
      overall: { renderer: peak(1900, 950), edge: peak(140, 120), brand: peak(160, 140), company: peak(150, 151), classifier: peak(400, 250) },
      byPhase: { '/screenshot c=8': { renderer: peak(1500, 780) }, '/enrich c=8': { renderer: peak(1600, 790) }, 'warm-up': { renderer: peak(1900, 950) } },
    },
    durationS: 1,
    loadAverage: { start: 0, end: 0 },
  };
}

describe('benchGoals', () => {
  const goals = benchGoals(results());
  const find = (what: string) => goals.find((g) => g.what.startsWith(what));

  it('reads the latency and throughput ratios at the levels the issue names', () => {
    expect(find('/screenshot ÷ bare Playwright, p50 at concurrency 1')).toMatchObject({ measured: '1.25x', goal: '≤ 1.10x', met: false });
    expect(find('/screenshot ÷ bare Playwright, p50 at concurrency 4')).toMatchObject({ measured: '0.90x', met: true });
    expect(find('/enrich ÷ /screenshot')).toMatchObject({ measured: '1.40x', goal: '≤ 1.30x', met: false });
    // 2.7 req/s of /enrich at saturation against 4.2 shots/s: 0.64.
    expect(find('/enrich throughput')).toMatchObject({ measured: '0.64x', goal: '≥ 0.85x', met: false });
  });

  it('takes the renderer peak under 8 clients, not the warm-up, and the edge by RSS', () => {
    expect(find('renderer + Chromium')).toMatchObject({ measured: '790 MB PSS', met: true });
    expect(find('edge')).toMatchObject({ measured: '140 MB RSS', goal: '< 150 MB RSS', met: true });
    expect(find('company')).toMatchObject({ measured: '151 MB PSS', met: false });
    expect(find('classifier')).toMatchObject({ measured: '250 MB PSS', met: true });
  });

  it('judges each refusal path against /health in the same run, and says when a path has no figure', () => {
    expect(find('refusal `no-key`: throughput')).toMatchObject({ measured: '999 req/s', met: true });
    expect(find('refusal `no-key`: p99')).toMatchObject({ measured: '+8 ms', met: true });
    expect(find('refusal `refused-url`: throughput')).toMatchObject({ measured: '600 req/s', met: false });
    expect(find('refusal `refused-url`: p99')).toMatchObject({ measured: '+18 ms', met: false });
    expect(goals.some((g) => g.what.includes('bad-parameter'))).toBe(false);

    // With the floor measured just before the step, the goal compares with that floor.
    const withFloor = results();
    withFloor.edgeOverhead!.steps = withFloor.edgeOverhead!.steps.map((s) =>
      s.path === 'refused-url' ? { ...s, floor: { path: 'health', p99: 25, achievedRate: 1000 } } : s,
    );
    expect(benchGoals(withFloor).find((g) => g.what.startsWith('refusal `refused-url`: p99'))).toMatchObject({
      what: "refusal `refused-url`: p99 minus /health's p99 (25 ms, measured just before it)",
      measured: '+5 ms',
      met: true,
    });

    const r = results();
    r.edgeOverhead!.steps = r.edgeOverhead!.steps.filter((s) => s.path !== 'no-key');
    expect(benchGoals(r).find((g) => g.what.includes('no-key'))).toMatchObject({ measured: 'n/a', met: null });
  });

  it("judges a refusal on the paced reading when the step has one, with autocannon's beside it", () => {
    const r = results();
    const paced = (p99: number, floorP99: number, expected = 10000) => ({
      rounds: 2,
      roundP99: { floor: [floorP99, floorP99], path: [p99, p99] },
      floorP99,
      floorAchievedRate: 1000,
      achievedRate: 999,
      requests: 10000,
      expected,
      errors: 0,
      latencyMs: { p50: 1, p99, max: p99 },
    });
    r.edgeOverhead!.steps = r.edgeOverhead!.steps.map((s) =>
      s.path === 'no-key'
        ? { ...s, floor: { path: 'health', p99: 5, achievedRate: 1000 }, paced: paced(9.4, 6.2) }
        : s.path === 'refused-url'
          ? { ...s, paced: paced(30, 6, 9990) }
          : s,
    );
    const goals = benchGoals(r);
    const get = (what: string) => goals.find((g) => g.what.startsWith(what));
    // autocannon: 20 - 5 = +15 ms, not met; paced: 9.4 - 6.2 = +3.2 ms, met.
    expect(get('refusal `no-key`: p99')).toMatchObject({
      what: "refusal `no-key`: p99 minus /health's p99, paced (6.2 ms, the two taking turns)",
      measured: '+3.2 ms',
      met: true,
      aside: '+15 ms (autocannon, /health 5 ms)',
    });
    expect(get('refusal `no-key`: throughput')).toMatchObject({ measured: '999 req/s', met: true });
    // Paced: +24 ms and 10 answers that were not the expected 400: neither goal met.
    expect(get('refusal `refused-url`: p99')).toMatchObject({ measured: '+24 ms', met: false });
    expect(get('refusal `refused-url`: throughput')).toMatchObject({ met: false, aside: '600 req/s, not all held' });
    expect(goalsTable(goals)[0]).toContain('second reading, not judged');
  });

  it('judges the ratios on the alternating blocks when the run has them, with the levels beside', () => {
    const summary = (p50: number, throughput: number) => ({ ...level(1, p50, throughput), requests: 24, ok: 24 });
    const r = results();
    r.paired = {
      blocks: 6,
      c1: { perBlock: 4, screenshot: summary(330, 3), enrich: summary(420, 2.3), bare: summary(300, 3.3) },
      c4: { perBlock: 12, screenshot: summary(900, 4), bare: summary(1000, 4) },
      saturation: { concurrency: 8, perBlock: 16, enrich: summary(3000, 3.4), bare: summary(1900, 4) },
    };
    const paired = benchGoals(r);
    const get = (what: string) => paired.find((g) => g.what.startsWith(what));
    expect(get('/screenshot ÷ bare Playwright, p50 at concurrency 1')).toMatchObject({ measured: '1.10x', aside: '1.25x', met: true });
    expect(get('/screenshot ÷ bare Playwright, p50 at concurrency 4')).toMatchObject({ measured: '0.90x', aside: '0.90x', met: true });
    // 420 / 330 in the blocks; 700 / 500 at the levels.
    expect(get('/enrich ÷ /screenshot')).toMatchObject({ measured: '1.27x', aside: '1.40x', met: true });
    expect(get('/enrich throughput')).toMatchObject({ measured: '0.85x', aside: '0.64x', met: true });
    expect(get('edge')?.aside).toBeUndefined();
    const table = goalsTable(paired);
    expect(table[0]).toBe('| goal | measured | second reading, not judged | target | met |');
    expect(table.find((l) => l.includes('concurrency 1') && l.includes('screenshot'))).toBe(
      '| /screenshot ÷ bare Playwright, p50 at concurrency 1 | 1.10x | 1.25x | ≤ 1.10x | ✔ |',
    );
    expect(table.find((l) => l.startsWith('| edge'))).toBe('| edge | 140 MB RSS |  | < 150 MB RSS | ✔ |');
  });

  it('prints a table with a mark per goal', () => {
    const table = goalsTable(goals);
    expect(table[0]).toBe('| goal | measured | target | met |');
    expect(table.find((l) => l.includes('concurrency 4'))).toMatch(/\| ✔ \|$/);
    expect(table.find((l) => l.includes('concurrency 1') && l.includes('screenshot'))).toMatch(/\| ✘ \|$/);
  });
});
