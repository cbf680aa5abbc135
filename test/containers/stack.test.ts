/**
 * The whole system without compose: NATS from the image and config docker-compose.yml deploys (in a
 * container), the five services as child processes started exactly as the images start them
 * (`node services/<name>/src/main.ts`), a fixture site on 127.0.0.1, and one real /screenshot
 * through the edge, ending with the stored image fetched from the URL the API returned.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/nats-server.ts';
import { composeImage, containerRuntimeProblem } from './runtime.ts';
import { DEFAULT_CHROMIUM_PATH } from '../../services/renderer/src/config.ts';

const problem = await containerRuntimeProblem();
if (problem) console.warn(`[containers] stack against containerised NATS skipped: ${problem}`);

const root = join(import.meta.dirname, '..', '..');
const SERVICES = ['renderer', 'brand', 'company', 'classifier', 'edge'] as const;

const FIXTURE_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Harbor Coffee Roasters</title>
<style>body{font-family:Georgia,serif;background:#f4efe6;color:#3b2a1a} header{background:#7a3e12;color:#fff;padding:24px}</style>
</head><body><header><h1>Harbor Coffee Roasters</h1></header><main><p>Small-batch coffee, roasted daily in Portland.</p></main></body></html>`;

interface Running {
  name: string;
  proc: ChildProcess;
  output: () => string;
}

function startService(name: string, env: Record<string, string>): Running {
  const proc = spawn(process.execPath, [`services/${name}/src/main.ts`], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-6000);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  return { name, proc, output: () => out };
}

async function stopService(s: Running): Promise<void> {
  if (s.proc.exitCode !== null) return;
  const exited = new Promise((r) => s.proc.once('exit', r));
  s.proc.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (s.proc.exitCode === null) s.proc.kill('SIGKILL');
}

async function waitUntil(what: string, check: () => Promise<boolean>, running: Running[], timeoutMs = 90_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const dead = running.find((s) => s.proc.exitCode !== null);
    if (dead) throw new Error(`${dead.name} exited with ${dead.proc.exitCode} while waiting for ${what}:\n${dead.output()}`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} not reached within ${timeoutMs} ms:\n${running.map((s) => `--- ${s.name}\n${s.output()}`).join('\n')}`);
}

function run(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited with ${code}:\n${out}`))));
  });
}

describe.skipIf(problem !== undefined)(problem ? `stack against containerised NATS (skipped: ${problem})` : 'stack against containerised NATS', () => {
  const running: Running[] = [];
  const screenshotDir = mkdtempSync(join(tmpdir(), 'enrich-stack-'));
  let stopNats: () => Promise<unknown> = async () => undefined;
  let site: Server | undefined;
  let siteUrl = '';
  let edgeBase = '';
  let apiKey = '';

  const natsCredentials = { NATS_USER: 'enrich', NATS_PASSWORD: `stack-${randomUUID()}` };

  beforeAll(async () => {
    const { GenericContainer, Wait } = await import('testcontainers');
    const nats = await new GenericContainer(composeImage('nats'))
      .withCopyFilesToContainer([{ source: join(root, 'deploy/docker/nats/nats.conf'), target: '/etc/nats/nats.conf' }])
      .withCommand(['-c', '/etc/nats/nats.conf'])
      .withEnvironment(natsCredentials) // the config's authorization block reads them
      .withExposedPorts(4222, 8222)
      .withWaitStrategy(Wait.forHttp('/healthz?js-enabled-only=true', 8222))
      .start();
    stopNats = () => nats.stop();
    const natsUrl = `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`;

    site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(FIXTURE_HTML));
    const sitePort = await freePort();
    await new Promise<void>((r) => site?.listen(sitePort, '127.0.0.1', () => r()));
    siteUrl = `http://127.0.0.1:${sitePort}/`;

    const edgePort = await freePort();
    edgeBase = `http://127.0.0.1:${edgePort}`;
    const common = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NATS_URL: natsUrl, LOG_LEVEL: 'warn', ...natsCredentials };
    const perService: Record<(typeof SERVICES)[number], Record<string, string>> = {
      renderer: {
        CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH,
        // The fixture site is on loopback, which production refuses.
        ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
        SCREENSHOT_DIR: screenshotDir,
        ASSETS_BASE_URL: `${edgeBase}/assets`,
        HEALTH_PORT: String(await freePort()),
      },
      brand: { HEALTH_PORT: String(await freePort()) },
      company: { HEALTH_PORT: String(await freePort()) },
      classifier: { HEALTH_PORT: String(await freePort()) },
      edge: {
        PORT: String(edgePort),
        HOST: '127.0.0.1',
        STORE: 'kv',
        STORE_NAME: `stack_${randomUUID().slice(0, 8)}`,
        // The edge refuses literal loopback targets early too.
        ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
        SCREENSHOT_DIR: screenshotDir,
        ASSETS_BASE_URL: `${edgeBase}/assets`,
      },
    };
    for (const name of SERVICES) running.push(startService(name, { ...common, ...perService[name] }));

    const created = await run(['services/edge/src/keys-cli.ts', 'create', '--name', 'stack test', '--credits', '10', '--rate-limit', '60', '--json'], {
      ...common,
      ...perService.edge,
    });
    apiKey =
      (
        JSON.parse(
          created
            .trim()
            .split('\n')
            .reverse()
            .find((l) => l.startsWith('{')) ?? '{}',
        ) as { key?: string }
      ).key ?? '';
    expect(apiKey, created).not.toBe('');

    for (const name of ['renderer', 'brand', 'company', 'classifier'] as const) {
      await waitUntil(`${name} /ready`, async () => (await fetch(`http://127.0.0.1:${perService[name].HEALTH_PORT}/ready`)).ok, running);
    }
    await waitUntil('edge /ready', async () => (await fetch(`${edgeBase}/ready`)).ok, running);
  });

  afterAll(async () => {
    await Promise.all(running.map(stopService));
    await new Promise<void>((r) => (site ? site.close(() => r()) : r()));
    await stopNats();
    rmSync(screenshotDir, { recursive: true, force: true });
  });

  it('answers /screenshot through NATS in a container and serves the stored image', async () => {
    const res = await fetch(`${edgeBase}/screenshot?url=${encodeURIComponent(siteUrl)}`, { headers: { 'x-api-key': apiKey } });
    const body = (await res.json()) as {
      success: boolean;
      data?: { url: string; screenshot_url: string; format: string };
      error?: string;
      meta: { requestId: string };
    };
    expect(res.status, body.error).toBe(200);
    expect(body.success).toBe(true);
    expect(body.meta.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.data?.url).toBe(siteUrl);
    expect(res.headers.get('x-credits-used')).toBe('1');

    const image = await fetch(body.data?.screenshot_url ?? '');
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe(`image/${body.data?.format}`);
    expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });
});
