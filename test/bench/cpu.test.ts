import { describe, expect, it } from 'vitest';
import { benchCpuPerRequest, cpuPerRequest, cpuTotal, statTicks, treeCpuMs } from './cpu.ts';

describe('CPU time of process trees', () => {
  it('reads utime + stime + cutime + cstime after a command name with spaces and parentheses', () => {
    const stat = '4242 (Web (Content) 1) S 1 4242 4242 0 -1 4194560 100 0 0 0 70 30 5 2 20 0 1 0 100 0 0';
    expect(statTicks(stat)).toBe(70 + 30 + 5 + 2);
  });

  it("counts this process's own work", () => {
    const before = treeCpuMs(process.pid);
    // 120 ms of CPU by the process's own clock (not wall time: on a busy machine a core is shared).
    const start = process.cpuUsage();
    const spent = (): number => {
      const u = process.cpuUsage(start);
      return (u.user + u.system) / 1000;
    };
    let x = 0;
    while (spent() < 120) x += Math.sqrt(x + 1);
    expect(x).toBeGreaterThan(0);
    // The clock in /proc ticks every 10 ms, so allow two ticks of rounding.
    expect(treeCpuMs(process.pid) - before).toBeGreaterThanOrEqual(100);
  });

  it('divides by the requests and never goes below zero', () => {
    const per = cpuPerRequest({ renderer: 1000, edge: 500 }, { renderer: 3400, edge: 480 }, 12);
    expect(per).toEqual({ renderer: 200, edge: 0 });
    expect(cpuTotal(per)).toBe(200);
  });
});

describe('the bench process own CPU', () => {
  it('is the work done here since the reading, per request', () => {
    const before = process.cpuUsage();
    let x = 0;
    for (let i = 0; i < 30_000_000; i++) x = (x + i * 7) % 1_000_003;
    expect(x).toBeGreaterThanOrEqual(0);
    const one = benchCpuPerRequest(before, 1);
    expect(one).toBeGreaterThan(0);
    expect(benchCpuPerRequest(before, 10)).toBeLessThanOrEqual(Math.ceil(one / 10) + 1);
  });
});
