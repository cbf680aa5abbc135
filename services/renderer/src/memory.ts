/**
 * What the browser holds, from /proc: the PSS (proportional set size, shared pages split between
 * the processes that map them) of the browser process and every descendant (zygotes, renderers,
 * GPU and utility processes). The pool reads it to retire a browser that grew past its cap.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The pid and every descendant, through /proc/<pid>/task/<tid>/children (the bench reads it too). */
export function processTree(pid: number): number[] {
  const out: number[] = [];
  const stack = [pid];
  while (stack.length > 0) {
    const p = stack.pop()!;
    out.push(p);
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      continue; // exited meanwhile
    }
    for (const t of tasks) {
      try {
        for (const c of readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').split(/\s+/)) if (c) stack.push(Number(c));
      } catch {
        // thread gone
      }
    }
  }
  return out;
}

/** PSS of the process tree in MB; null where /proc cannot tell (not Linux, process gone). */
export function treePssMb(pid: number): number | null {
  let kb = 0;
  let read = 0;
  for (const p of processTree(pid)) {
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'));
      if (m) {
        kb += Number(m[1]);
        read++;
      }
    } catch {
      // exited between listing and reading
    }
  }
  return read > 0 ? Math.round(kb / 1024) : null;
}
