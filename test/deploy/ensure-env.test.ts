/**
 * scripts/ensure-env.sh on a machine without Chromium: it installs Debian's chromium and its headless
 * shell without recommended packages plus the fonts pages need, and npm dependencies, printing one
 * line per step while apt's and npm's output goes to .data/logs/setup.log. apt-get, npm and id are stand-ins on
 * PATH (recording their arguments and printing noise); the script itself runs for real, in a copy of
 * the repository layout, with only the tools it needs on PATH.
 */
import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const TOOLS = ['dirname', 'mkdir', 'date', 'tail', 'sed', 'head', 'find', 'rm', 'ln', 'touch', 'grep'];
let dir: string;
let bin: string;

function shim(name: string, body: string): void {
  writeFileSync(join(bin, name), `#!/bin/bash\n${body}\n`);
  chmodSync(join(bin, name), 0o755);
}

function run(env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('/bin/bash', [join(dir, 'scripts', 'ensure-env.sh')], { cwd: dir, env: { PATH: bin, HOME: dir, ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'enrich-setup-'));
  bin = join(dir, 'bin');
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  mkdirSync(bin);
  copyFileSync(join(ROOT, 'scripts', 'ensure-env.sh'), join(dir, 'scripts', 'ensure-env.sh'));
  writeFileSync(join(dir, 'package.json'), '{}');
  writeFileSync(join(dir, 'package-lock.json'), '{}');
  for (const tool of TOOLS) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
  symlinkSync(process.execPath, join(bin, 'node'));
  shim('id', 'echo 0');
  // apt-get: records its arguments, talks a lot, and "installs" chromium as a command.
  shim(
    'apt-get',
    `echo "$*" >> "${dir}/apt.calls"\nfor i in $(seq 1 30); do echo "Get:$i http://deb.debian.org/debian bookworm/main noise $i"; done\necho "dpkg: warning: noise" >&2\ncase " $* " in *" chromium "*) printf '#!/bin/bash\\n' > "${bin}/chromium"; chmod +x "${bin}/chromium";; esac`,
  );
  symlinkSync('/usr/bin/seq', join(bin, 'seq'));
  symlinkSync('/usr/bin/chmod', join(bin, 'chmod'));
  shim(
    'npm',
    `echo "$*" >> "${dir}/npm.calls"\necho "npm warn deprecated noise@1.0.0" >&2\necho "added 812 packages in 31s"\n[ -z "$FAIL_NPM" ] || { echo "npm error code E418 teapot" >&2; exit 3; }\nmkdir -p node_modules`,
  );
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const natsMissing = (): boolean => !existsSync('/usr/sbin/nats-server');

describe('scripts/ensure-env.sh', () => {
  it('a failing step says so in one line and shows the end of the log; exit code of the step', async () => {
    const { code, stderr } = await run({ FAIL_NPM: '1', CHROMIUM_PATH: '/opt/chromium' });
    expect(code).toBe(3);
    expect(stderr).toMatch(/\[setup\] installing npm dependencies \(npm ci\): failed \(exit 3\); the end of .*\.data\/logs\/setup\.log:\n/);
    expect(stderr).toContain('    npm error code E418 teapot');
  });

  it('installs chromium and its headless shell without recommends plus fonts, then npm packages, one line per step; the noise goes to the log', async () => {
    const { code, stdout, stderr } = await run();
    expect(code, stderr).toBe(0);
    expect(stdout).toBe(`${join(bin, 'node')}\n`);
    const lines = stderr.trimEnd().split('\n');
    const apt = `${natsMissing() ? 'nats-server ' : ''}chromium chromium-headless-shell fonts-liberation fonts-dejavu-core`;
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\[setup\] updating Debian's package lists: done in \d+ s$/);
    expect(lines[1]).toMatch(new RegExp(`^\\[setup\\] installing Debian packages: ${apt}: done in \\d+ s$`));
    expect(lines[2]).toMatch(/^\[setup\] installing npm dependencies \(npm ci\): done in \d+ s$/);
    expect(readFileSync(join(dir, 'apt.calls'), 'utf8')).toBe(`update\ninstall -y --no-install-recommends ${apt}\n`);
    const log = readFileSync(join(dir, '.data', 'logs', 'setup.log'), 'utf8');
    expect(log).toContain('Get:30 http://deb.debian.org/debian bookworm/main noise 30');
    expect(log).toContain('dpkg: warning: noise');
    expect(log).toContain('added 812 packages in 31s');
  });

  it('prints nothing when nothing is missing', async () => {
    const { code, stdout, stderr } = await run();
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toBe(`${join(bin, 'node')}\n`);
    expect(readFileSync(join(dir, 'npm.calls'), 'utf8').trim().split('\n')).toEqual(['ci --no-audit --no-fund', 'ci --no-audit --no-fund']);
  });
});
