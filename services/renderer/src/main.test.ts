/**
 * The renderer process as the image starts it (`node services/renderer/src/main.ts`): the test
 * switches that open the SSRF guard stop a production start and are logged loudly otherwise.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { refuseTestSwitchesInProduction } from './config.ts';

const root = join(import.meta.dirname, '..', '..', '..');

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ['services/renderer/src/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', SCREENSHOT_DIR: mkdtempSync(join(tmpdir(), 'renderer-main-')), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

describe('test switches', () => {
  it.each([
    ['ALLOW_PRIVATE_TARGETS', '127.0.0.0/8'],
    ['RESOLVE_OVERRIDES', '*=127.0.0.2'],
  ])('NODE_ENV=production with %s set exits 78, naming it', async (name, value) => {
    // NATS_URL points nowhere: the start must stop before it tries to connect.
    const proc = start({ NODE_ENV: 'production', NATS_URL: 'nats://127.0.0.1:1', [name]: value });
    expect(await proc.exited).toBe(78);
    expect(proc.stderr()).toContain(`${name}=${JSON.stringify(value)}: a test switch, refused when NODE_ENV=production`);
  });

  it('empty values (as compose and k8s set them) pass in production; set values pass elsewhere', () => {
    expect(() => refuseTestSwitchesInProduction({ NODE_ENV: 'production', ALLOW_PRIVATE_TARGETS: '', RESOLVE_OVERRIDES: '' })).not.toThrow();
    expect(() => refuseTestSwitchesInProduction({ NODE_ENV: 'test', ALLOW_PRIVATE_TARGETS: '127.0.0.2/32' })).not.toThrow();
    expect(() => refuseTestSwitchesInProduction({ NODE_ENV: 'production', ALLOW_PRIVATE_TARGETS: '10.0.0.0/8', RESOLVE_OVERRIDES: '*=10.0.0.1' })).toThrow(
      /ALLOW_PRIVATE_TARGETS="10\.0\.0\.0\/8".*\n.*RESOLVE_OVERRIDES="\*=10\.0\.0\.1"/,
    );
  });

  it('otherwise logs a warning at start naming each switch and its value', async () => {
    const proc = start({
      NODE_ENV: 'development',
      NATS_URL: inject('natsUrl'),
      ALLOW_PRIVATE_TARGETS: '127.0.0.2/32',
      RESOLVE_OVERRIDES: 'shop.example=127.0.0.2',
      LOG_LEVEL: 'info',
    });
    try {
      const warnings = await new Promise<Array<{ switch: string; value: string; msg: string }>>((resolve, reject) => {
        const seen = () =>
          proc
            .stdout()
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as { level: string; switch?: string; value: string; msg: string })
            .filter((l) => l.level === 'warn' && l.switch);
        proc.child.stdout.on('data', () => {
          if (seen().length === 2) resolve(seen() as Array<{ switch: string; value: string; msg: string }>);
        });
        void proc.exited.then((code) => reject(new Error(`exited ${code} before warning:\n${proc.stdout()}${proc.stderr()}`)));
      });
      expect(warnings.map((w) => [w.switch, w.value])).toEqual([
        ['ALLOW_PRIVATE_TARGETS', '127.0.0.2/32'],
        ['RESOLVE_OVERRIDES', 'shop.example=127.0.0.2'],
      ]);
      expect(warnings[0]!.msg).toMatch(/^TEST SWITCH ALLOW_PRIVATE_TARGETS=127\.0\.0\.2\/32 is set/);
    } finally {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
  });
});
