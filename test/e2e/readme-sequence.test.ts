/**
 * The README's two-terminal sequence, as two real processes: `RENDERERS=2 npm start` (the launcher,
 * which starts its own nats-server on a free port, and two renderer processes), then `npm run keys -- create ...` from a second process, whose
 * key the running stack must accept. And the CLI without a stack: a message and a non-zero exit,
 * never a silent fallback to nats://127.0.0.1:4222.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RENDER_PAGE, pingSubject } from '@enrich/shared/contracts';
import { connectNats } from '@enrich/shared/nats';
import { LocalStackSchema } from '../../services/edge/src/local-stack.ts';
import { REPO_ROOT } from '../../deploy/local/stack.ts';
import { freePort } from '../../deploy/local/nats-server.ts';

/** The environment of a fresh terminal: no NATS_URL, MONGODB_URI or STORE that would point elsewhere. */
function terminalEnv(dataDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !['NATS_URL', 'MONGODB_URI', 'STORE', 'STORE_NAME', 'PORT'].includes(k)) env[k] = v;
  return { ...env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
}

function runKeys(dataDir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'services/edge/src/keys-cli.ts'), ...args], {
    cwd: REPO_ROOT,
    env: terminalEnv(dataDir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** Resolves with the launcher's output once it says the stack is up; rejects if it exits first. */
function untilUp(launcher: ChildProcess): Promise<string> {
  let out = '';
  return new Promise((resolve, reject) => {
    launcher.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ctrl-C stops everything')) resolve(out);
    });
    launcher.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    launcher.once('exit', (code) => reject(new Error(`the launcher exited (${code}) before it was up:\n${out}`)));
  });
}

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'enrich-readme-'));
  dirs.push(d);
  return d;
};
let launcher: ChildProcess | undefined;
afterAll(async () => {
  if (launcher && launcher.exitCode === null) {
    const exited = new Promise((r) => launcher?.once('exit', r));
    launcher.kill('SIGINT');
    await exited;
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The distinct renderer instances (pids) that answer render.page's ping, asked `tries` times (the queue group picks one each time). */
async function rendererInstances(natsUrl: string, tries: number): Promise<Set<string>> {
  const nc = await connectNats({ url: natsUrl, name: 'readme-test' });
  const seen = new Set<string>();
  try {
    for (let i = 0; i < tries; i++) {
      const msg = await nc.request(pingSubject(RENDER_PAGE.subject), '', { timeout: 2000 });
      seen.add(String((JSON.parse(msg.string()) as { instance: string }).instance));
    }
  } finally {
    await nc.close();
  }
  return seen;
}

describe('npm start (RENDERERS=2), then npm run keys from a second terminal', () => {
  it('creates a key the running stack accepts; after Ctrl-C the CLI says there is no stack', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    launcher = spawn(process.execPath, [join(REPO_ROOT, 'deploy/local/launcher.ts')], {
      cwd: REPO_ROOT,
      env: { ...terminalEnv(dataDir), PORT: String(port), RENDERERS: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const banner = await untilUp(launcher);
    expect(banner).toContain(`Web enrichment API is up at http://127.0.0.1:${port}`);
    expect(banner).toContain('2 renderer processes');

    const stack = LocalStackSchema.parse(JSON.parse(readFileSync(join(dataDir, 'stack.json'), 'utf8')));
    expect(stack).toMatchObject({
      pid: launcher.pid,
      natsStartedHere: true,
      store: { kind: 'kv', name: 'enrich' },
      edge: { port, baseUrl: `http://127.0.0.1:${port}` },
    });
    // Its own nats-server on a free port, not the default one the CLI used to assume.
    expect(stack.natsUrl).toMatch(/^nats:\/\/127\.0\.0\.1:\d+$/);
    expect(stack.natsUrl).not.toBe('nats://127.0.0.1:4222');
    // RENDERERS=2: two renderer processes in render.page's queue group (40 pings miss one with odds 2^-39).
    expect((await rendererInstances(stack.natsUrl, 40)).size).toBe(2);

    const created = await runKeys(dataDir, ['create', '--name', 'acme', '--credits', '5000', '--json']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain(`keys: using the stack at ${stack.edge.baseUrl} (NATS ${stack.natsUrl}`);
    const { key } = JSON.parse(created.stdout) as { key: string };

    const res = await fetch(`${stack.edge.baseUrl}/classify?url=${encodeURIComponent(`${stack.demoSite}/`)}`, { headers: { 'x-api-key': key } });
    const body = (await res.json()) as { success: boolean; data: { category: string } };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.data.category).toBe('Food & Drink');

    // A second `npm start` on the same data directory refuses instead of fighting over it.
    const second = spawn(process.execPath, [join(REPO_ROOT, 'deploy/local/launcher.ts')], {
      cwd: REPO_ROOT,
      env: { ...terminalEnv(dataDir), PORT: String(await freePort()) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let secondErr = '';
    second.stderr.on('data', (d: Buffer) => (secondErr += d.toString()));
    expect(await new Promise((r) => second.once('close', r))).toBe(1);
    expect(secondErr).toContain(`a stack is already running at ${stack.edge.baseUrl} (launcher pid ${launcher.pid}`);

    const exited = new Promise<number | null>((r) => launcher?.once('exit', r));
    launcher.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(existsSync(join(dataDir, 'stack.json'))).toBe(false);
    const after = await runKeys(dataDir, ['list']);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain('no running stack found');
  }, 180_000);
});

describe('npm run keys without a stack', () => {
  it('without stack.json and NATS_URL it says what to do and exits 1', async () => {
    const dataDir = tempDir();
    const { code, stdout, stderr } = await runKeys(dataDir, ['create', '--name', 'acme', '--credits', '5000']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(`keys: no running stack found (${join(dataDir, 'stack.json')} does not exist) and NATS_URL is not set.`);
    expect(stderr).toContain('Start the stack with `npm start`');
    expect(stderr).toContain('set NATS_URL');
  });

  it('a stack.json left by a launcher that is gone is reported as stale', async () => {
    const dataDir = tempDir();
    // A pid that surely is not running: a child that has already exited.
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => gone.once('exit', r));
    const record = {
      version: 1,
      pid: gone.pid,
      startedAt: new Date().toISOString(),
      natsUrl: 'nats://127.0.0.1:1',
      natsStartedHere: true,
      store: { kind: 'kv', name: 'enrich' },
      edge: { port: 8080, baseUrl: 'http://127.0.0.1:8080' },
    };
    writeFileSync(join(dataDir, 'stack.json'), JSON.stringify(record));
    const { code, stderr } = await runKeys(dataDir, ['list']);
    expect(code).toBe(1);
    expect(stderr).toContain(`is stale, the launcher that wrote it (pid ${gone.pid}) is not running`);
  });
});
