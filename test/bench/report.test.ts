import { describe, expect, it } from 'vitest';
import { asciiChart, cpuTable, fmtMs, latencyChartSvg, niceStep } from './report.ts';

const series = [
  {
    label: '/enrich p50',
    color: '#7c3aed',
    points: [
      { x: 1, y: 1800 },
      { x: 2, y: 2400 },
      { x: 4, y: 4100 },
      { x: 8, y: 7900 },
    ],
  },
  {
    label: 'bare Playwright p50',
    color: '#16a34a',
    dashed: true,
    points: [
      { x: 1, y: 600 },
      { x: 2, y: 700 },
      { x: 4, y: Number.NaN },
      { x: 8, y: 1900 },
    ],
  },
];

describe('niceStep', () => {
  it('picks 1, 2 or 5 times a power of ten', () => {
    expect(niceStep(7900, 6)).toBe(2000);
    expect(niceStep(95, 6)).toBe(20);
    expect(niceStep(0.9, 6)).toBe(0.2);
  });
});

describe('latencyChartSvg', () => {
  it('draws one polyline per series, skipping missing points, with a legend', () => {
    const svg = latencyChartSvg('Latency <by> concurrency', [1, 2, 4, 8], series);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('Latency &lt;by&gt; concurrency');
    const lines = [...svg.matchAll(/<polyline [^>]*points="([^"]*)"/g)].map((m) => m[1]!.split(' ').length);
    expect(lines).toEqual([4, 3]);
    expect(svg).toContain('stroke-dasharray');
    expect(svg).toContain('>8 s<');
  });
});

describe('asciiChart', () => {
  it('scales bars to the largest value and prints the figure', () => {
    const lines = asciiChart([1, 8], series, 20).split('\n');
    expect(lines[0]).toBe('concurrency 1');
    expect(lines).toContain(`  /enrich p50         |${'#'.repeat(20)} 7900 ms`);
    expect(lines.find((l) => l.includes('Playwright') && l.endsWith('600 ms'))).toContain(`|${'#'.repeat(2)} `);
  });
});

describe('fmtMs', () => {
  it('switches to seconds for long latencies', () => {
    expect(fmtMs(812.4)).toBe('812 ms');
    expect(fmtMs(12_345)).toBe('12.3 s');
    expect(fmtMs(Number.NaN)).toBe('n/a');
  });
});

describe('cpuTable', () => {
  const level = (concurrency: number, throughput: number, cpuMs?: Record<string, number>) => ({
    concurrency,
    requests: 12,
    ok: 12,
    errors: 0,
    errorStatuses: {},
    p50: 1,
    p95: 1,
    p99: 1,
    mean: 1,
    max: 1,
    throughput,
    wallMs: 1000,
    ...(cpuMs ? { cpuMs } : {}),
  });
  it('lists each level with CPU figures, its total and the ceiling the cores allow', () => {
    const lines = cpuTable(
      [
        ['/enrich', [level(1, 1.8, { renderer: 600, classifier: 50 }), level(8, 2.4)]],
        ['bare Playwright', [level(1, 4.5, { chromium: 320 })]],
      ],
      2,
    );
    expect(lines[0]).toBe('| what | concurrency | renderer | classifier | chromium | total | ceiling at 2 cores (req/s) | measured (req/s) |');
    expect(lines.slice(2)).toEqual(['| /enrich | 1 | 600 | 50 | – | 650 | 3.08 | 1.80 |', '| bare Playwright | 1 | – | – | 320 | 320 | 6.25 | 4.50 |']);
  });
  it('is empty when no level has CPU figures', () => {
    expect(cpuTable([['/enrich', [level(1, 1)]]], 2)).toEqual([]);
  });
});
