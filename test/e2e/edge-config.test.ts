/**
 * The edge process refuses unsafe or contradictory settings at start, exit code 78 (EX_CONFIG) and a
 * message naming the variable, before it connects to anything (NATS_URL points nowhere here).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../deploy/local/stack.ts';

function runEdge(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'services', 'edge', 'src', 'main.ts')], {
    cwd: REPO_ROOT,
    env: { ...process.env, NATS_URL: 'nats://127.0.0.1:1', ...env },
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

describe('edge start-up refusals', () => {
  it.each([
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY="true": trusting every hop lets a client choose its own IP'],
    [{ TRUST_PROXY: '*' }, 'TRUST_PROXY="*": trusting every hop'],
    [{ REQUEST_BUDGET_MS: '30000', RESERVATION_TTL_MS: '20000' }, 'RESERVATION_TTL_MS="20000": must be at least REQUEST_BUDGET_MS (30000)'],
    [{ NODE_ENV: 'production', ALLOW_PRIVATE_TARGETS: '10.0.0.0/8' }, 'ALLOW_PRIVATE_TARGETS="10.0.0.0/8": a test switch, refused when NODE_ENV=production'],
  ])('%o exits 78 with a message', async (env, message) => {
    const { code, output } = await runEdge(env);
    expect(output).toContain(message);
    expect(code).toBe(78);
  });
});
