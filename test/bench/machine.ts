/** The machine and the versions a benchmark ran on, printed with every result. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGb: number;
  kernel: string;
  node: string;
  chromium: string;
  playwrightCore: string;
  natsServer: string;
  autocannon: string;
  gitCommit: string;
  startedAt: string;
}

function tryRun(cmd: string, args: string[], cwd?: string): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000, cwd }).trim();
  } catch {
    return 'unknown';
  }
}

function cpuModel(): string {
  const fromOs = os.cpus()[0]?.model?.trim();
  if (fromOs) return fromOs;
  try {
    return /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export function machineInfo(opts: { chromiumPath: string; natsServerBin: string; repoRoot: string; autocannon: string }): MachineInfo {
  const require = createRequire(import.meta.url);
  return {
    cpuModel: cpuModel(),
    cores: os.availableParallelism(),
    memoryGb: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    kernel: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    // The build as well as the version: the headless shell and the full Chromium print the same version.
    chromium: `${tryRun(opts.chromiumPath, ['--version'])} (${opts.chromiumPath})`,
    playwrightCore: (require('playwright-core/package.json') as { version: string }).version,
    natsServer: tryRun(opts.natsServerBin, ['--version']),
    autocannon: opts.autocannon,
    gitCommit: tryRun('git', ['rev-parse', '--short', 'HEAD'], opts.repoRoot),
    startedAt: new Date().toISOString(),
  };
}
