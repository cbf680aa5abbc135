import { readdirSync, readFileSync } from 'node:fs';

/** Pids of browser processes this test process launched (direct children whose command names Chromium). */
export function chromiumChildPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (/chrom/i.test(cmd)) pids.push(Number(entry));
    } catch {
      /* process exited meanwhile */
    }
  }
  return pids;
}
