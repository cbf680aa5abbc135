/**
 * Starts the whole system as local processes: a private nats-server (unless a NATS URL is given),
 * the five services, each its own Node process, and waits until the edge's /ready answers 200.
 * Used by `npm start`, the end-to-end tests and the benchmarks, so all three run the same system.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNatsServer, type NatsServerHandle } from './nats-server.ts';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVICES = ['renderer', 'brand', 'company', 'classifier', 'edge'] as const;
export type ServiceName = (typeof SERVICES)[number];

export interface StackOptions {
  port: number;
  /** Use this NATS instead of starting one. */
  natsUrl?: string | undefined;
  /** Where nats-server keeps JetStream data (a temp dir when unset), screenshots and logs go. */
  dataDir: string;
  /** Persist JetStream under dataDir/nats (the launcher), or use a throwaway dir (tests). */
  persistNats?: boolean;
  /** Extra environment for every service, and per service. */
  env?: Record<string, string>;
  serviceEnv?: Partial<Record<ServiceName, Record<string, string>>>;
  /** 'inherit' shows service logs on this terminal; 'files' writes dataDir/logs/<service>.log. */
  logs?: 'inherit' | 'files' | 'ignore';
  services?: readonly ServiceName[];
  readyTimeoutMs?: number;
}

export interface Stack {
  baseUrl: string;
  natsUrl: string;
  processes: Map<ServiceName, ChildProcess>;
  nats: NatsServerHandle | undefined;
  stop(): Promise<void>;
}

export async function waitForReady(baseUrl: string, timeoutMs: number, procs: Map<ServiceName, ChildProcess>): Promise<void> {
  const until = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < until) {
    for (const [name, p] of procs) {
      if (p.exitCode !== null) throw new Error(`service ${name} exited with code ${p.exitCode} during start (see its log)`);
    }
    try {
      const res = await fetch(`${baseUrl}/ready`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
      last = `${res.status} ${await res.text()}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the edge at ${baseUrl} was not ready within ${timeoutMs} ms: ${last}`);
}

export async function startStack(opts: StackOptions): Promise<Stack> {
  mkdirSync(opts.dataDir, { recursive: true });
  let nats: NatsServerHandle | undefined;
  let natsUrl = opts.natsUrl;
  if (!natsUrl) {
    const storeDir = opts.persistNats ? join(opts.dataDir, 'nats') : undefined;
    nats = await startNatsServer(storeDir ? { storeDir } : {});
    natsUrl = nats.url;
  }
  const baseUrl = `http://127.0.0.1:${opts.port}`;
  const common: Record<string, string> = {
    NATS_URL: natsUrl,
    SCREENSHOT_DIR: join(opts.dataDir, 'screenshots'),
    ASSETS_BASE_URL: `${baseUrl}/assets`,
    ...opts.env,
  };
  const processes = new Map<ServiceName, ChildProcess>();
  const logDir = join(opts.dataDir, 'logs');
  if (opts.logs === 'files') mkdirSync(logDir, { recursive: true });

  const stop = async (): Promise<void> => {
    const exits = [...processes.values()].map((p) =>
      p.exitCode !== null || p.signalCode !== null
        ? Promise.resolve()
        : new Promise<void>((r) => {
            const t = setTimeout(() => p.kill('SIGKILL'), 15_000);
            p.once('exit', () => {
              clearTimeout(t);
              r();
            });
            p.kill('SIGTERM');
          }),
    );
    await Promise.all(exits);
    await nats?.stop();
  };

  try {
    for (const name of opts.services ?? SERVICES) {
      const env = { ...process.env, ...common, ...(name === 'edge' ? { PORT: String(opts.port) } : {}), ...opts.serviceEnv?.[name] };
      const child = spawn(process.execPath, [join(REPO_ROOT, 'services', name, 'src', 'main.ts')], {
        cwd: REPO_ROOT,
        env,
        stdio: opts.logs === 'inherit' ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
      });
      if (opts.logs === 'files') {
        const out = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
        child.stdout?.pipe(out);
        child.stderr?.pipe(out);
      } else if (opts.logs !== 'inherit') {
        child.stdout?.resume();
        child.stderr?.resume();
      }
      processes.set(name, child);
    }
    if ((opts.services ?? SERVICES).includes('edge')) await waitForReady(baseUrl, opts.readyTimeoutMs ?? 90_000, processes);
  } catch (err) {
    await stop();
    throw err;
  }
  return { baseUrl, natsUrl, processes, nats, stop };
}

/** Runs the key CLI against the stack's store and returns the created key. */
export async function createApiKey(
  natsUrl: string,
  opts: { name: string; credits: number; rateLimit: number; env?: Record<string, string> },
): Promise<{ key: string; id: string }> {
  const child = spawn(
    process.execPath,
    [
      join(REPO_ROOT, 'services/edge/src/keys-cli.ts'),
      'create',
      '--name',
      opts.name,
      '--credits',
      String(opts.credits),
      '--rate-limit',
      String(opts.rateLimit),
      '--json',
    ],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, NATS_URL: natsUrl, LOG_LEVEL: 'warn', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let errText = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (errText += d.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`keys-cli create failed (${code}): ${errText || out}`);
  const line = out
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop();
  if (!line) throw new Error(`keys-cli printed no JSON: ${out}`);
  return JSON.parse(line) as { key: string; id: string };
}
