/**
 * Every service stops at start on a wrong configuration value, with a message naming the variable
 * and the value, before it touches NATS or a browser.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, SERVICES } from '../../deploy/local/stack.ts';

function run(service: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'services', service, 'src', 'main.ts')], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

describe.each(SERVICES)('%s with a wrong configuration value', (service) => {
  it('exits 78 naming NATS_URL and the value given', async () => {
    const { code, output } = await run(service, { NATS_URL: 'http://nats.internal:4222' });
    expect(output).toContain('NATS_URL="http://nats.internal:4222"');
    expect(code).toBe(78);
  });

  it('exits 78 naming LOG_LEVEL and the value given', async () => {
    const { code, output } = await run(service, { LOG_LEVEL: 'chatty' });
    expect(output).toContain('LOG_LEVEL="chatty"');
    expect(code).toBe(78);
  });
});
