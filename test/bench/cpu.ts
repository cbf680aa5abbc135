/**
 * CPU time of process trees from /proc: a process and all its descendants (the renderer and its
 * Chromium processes), read before and after a phase of load, so the bench can say what one request
 * costs each process in CPU milliseconds. On a machine whose cores are all busy at saturation, that
 * sum bounds the throughput: cores x 1000 / (CPU ms per request) requests a second at most.
 *
 * A process's own time (utime + stime) plus the time of its children it has waited for (cutime +
 * cstime): Chromium's renderer processes exit with their context, and their time moves into the
 * zygote that reaps them, which is in the tree.
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { processTree } from './memory.ts';

let ticksPerSecond: number | undefined;

/** USER_HZ: the unit of the times in /proc/<pid>/stat (100 on Linux nearly everywhere). */
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** The CPU ticks in one /proc/<pid>/stat line: utime + stime + cutime + cstime (fields 14-17). */
export function statTicks(stat: string): number {
  // The command name (field 2) is in parentheses and may hold spaces and parentheses itself.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
}

function processCpuMs(pid: number): number {
  try {
    return (statTicks(readFileSync(`/proc/${pid}/stat`, 'utf8')) * 1000) / clockTicks();
  } catch {
    return 0; // the process exited between listing and reading
  }
}

/** CPU milliseconds the process and its descendants have used so far. */
export function treeCpuMs(pid: number): number {
  return processTree(pid).reduce((sum, p) => sum + processCpuMs(p), 0);
}

export type CpuReading = Record<string, number>;

/** Reads every named tree at once. */
export function readCpu(pids: Record<string, number>): CpuReading {
  return Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, treeCpuMs(pid)]));
}

/** CPU milliseconds per request by tree between two readings, rounded; never negative (a tree that lost a process). */
export function cpuPerRequest(before: CpuReading, after: CpuReading, requests: number): CpuReading {
  return Object.fromEntries(Object.keys(after).map((name) => [name, Math.max(0, Math.round((after[name]! - (before[name] ?? 0)) / Math.max(1, requests)))]));
}

/** The sum of a per-request reading. */
export const cpuTotal = (perRequest: CpuReading): number => Object.values(perRequest).reduce((a, b) => a + b, 0);

/**
 * This process's own CPU milliseconds per request since `before` (process.cpuUsage): the fixture
 * server, the client (for the bare baseline, its Playwright client) and the /proc sampler. Its
 * children (the stack's services, the baseline's Chromium) are not in it.
 */
export function benchCpuPerRequest(before: NodeJS.CpuUsage, requests: number): number {
  const used = process.cpuUsage(before);
  return Math.round((used.user + used.system) / 1000 / Math.max(1, requests));
}
