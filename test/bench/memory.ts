/**
 * Resident memory of process trees from /proc: a process and all its descendants (the renderer and
 * the Chromium processes it launched), sampled on an interval while load runs, keeping the peak.
 * RSS counts pages shared between Chromium's processes once per process, so the sum overstates
 * what the tree really holds; PSS (from smaps_rollup, shared pages split between their users) is
 * sampled alongside, less often because reading it walks the page tables.
 */
import { readFileSync } from 'node:fs';
import { processTree } from '../../services/renderer/src/memory.ts';

function readKb(file: string, field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(file, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0; // the process exited between listing and reading
  }
}

/** The pid and every descendant (the renderer's own reader, which retires an oversized browser). */
export { processTree };

export interface TreeMemory {
  rssMb: number;
  pssMb: number;
  processes: number;
}

export function treeMemory(pid: number, withPss: boolean): TreeMemory {
  const pids = processTree(pid);
  let rss = 0;
  let pss = 0;
  for (const p of pids) {
    rss += readKb(`/proc/${p}/status`, 'VmRSS');
    if (withPss) pss += readKb(`/proc/${p}/smaps_rollup`, 'Pss');
  }
  return { rssMb: Math.round(rss / 102.4) / 10, pssMb: Math.round(pss / 102.4) / 10, processes: pids.length };
}

export interface PeakMemory {
  /** Peak of the summed RSS over the samples. */
  peakRssMb: number;
  /** Peak of the summed PSS (sampled every `pssEvery` samples). */
  peakPssMb: number;
  /** Most processes seen in the tree at once. */
  maxProcesses: number;
  samples: number;
}

export interface MemoryReport {
  /** Peaks over the whole run, per process tree. */
  overall: Record<string, PeakMemory>;
  /** Peaks per phase of the run (as named with phase()), per process tree. */
  byPhase: Record<string, Record<string, PeakMemory>>;
}

export interface MemorySampler {
  /** Samples from now on also count towards this phase. */
  phase(label: string): void;
  stop(): MemoryReport;
}

export function sampleMemory(pids: Record<string, number>, opts: { intervalMs: number; pssEvery: number }): MemorySampler {
  const empty = (): Record<string, PeakMemory> =>
    Object.fromEntries(Object.keys(pids).map((n) => [n, { peakRssMb: 0, peakPssMb: 0, maxProcesses: 0, samples: 0 }]));
  const report: MemoryReport = { overall: empty(), byPhase: {} };
  let phase: Record<string, PeakMemory> | undefined;
  let tick = 0;
  const add = (into: PeakMemory, m: TreeMemory, withPss: boolean): void => {
    into.samples++;
    into.peakRssMb = Math.max(into.peakRssMb, m.rssMb);
    if (withPss) into.peakPssMb = Math.max(into.peakPssMb, m.pssMb);
    into.maxProcesses = Math.max(into.maxProcesses, m.processes);
  };
  const sample = (): void => {
    const withPss = tick++ % opts.pssEvery === 0;
    for (const [name, pid] of Object.entries(pids)) {
      const m = treeMemory(pid, withPss);
      add(report.overall[name]!, m, withPss);
      if (phase) add(phase[name]!, m, withPss);
    }
  };
  sample();
  const timer = setInterval(sample, opts.intervalMs);
  return {
    phase(label) {
      phase = report.byPhase[label] ??= empty();
    },
    stop() {
      clearInterval(timer);
      sample();
      return structuredClone(report);
    },
  };
}
