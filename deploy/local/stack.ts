/**
 * Starts the whole system as local processes: a private nats-server (unless a NATS URL is given),
 * the five services, each its own Node process, and waits until the edge's /ready answers 200.
 * Used by `npm start`, the end-to-end tests and the benchmarks, so all three run the same system.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { RENDER_PAGE, pingSubject } from '@enrich/shared/contracts';
import { connectNats } from '@enrich/shared/nats';
import { WARM_COMPILE_CACHE_ENV } from '@enrich/shared/runtime/compile-cache';
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
  /**
   * Renderer processes to start (default 1): each is a queue-group subscriber on render.page, so
   * NATS spreads renders over them; the edge retries a BUSY answer, which usually lands on another.
   * They are named renderer, renderer-2, ... (process map keys and log files).
   */
  renderers?: number;
}

/**
 * What the service's image sets in its environment (deploy/docker/Dockerfile), so a local stack and
 * the bench run each process as production does; the caller's env and serviceEnv still win.
 */
export const IMAGE_ENV: Partial<Record<ServiceName, Record<string, string>>> = {
  edge: { NODE_OPTIONS: '--max-semi-space-size=2 --max-old-space-size=96', MALLOC_ARENA_MAX: '2' },
  renderer: { NODE_OPTIONS: '--max-semi-space-size=4' },
  brand: { NODE_OPTIONS: '--max-semi-space-size=4', MALLOC_ARENA_MAX: '2' },
  company: { NODE_OPTIONS: '--max-semi-space-size=4', MALLOC_ARENA_MAX: '2' },
  classifier: { NODE_OPTIONS: '--max-semi-space-size=4', MALLOC_ARENA_MAX: '2' },
};

/**
 * Where the local stack's services keep Node's compile cache (the stripped TypeScript and V8's code
 * cache), as the image keeps it in /app/.cache/node-compile (deploy/docker/Dockerfile): a service
 * started with a warm cache does not load Node's TypeScript stripper, about 17 MB of RSS per process.
 * Entries are checked against each file's content, so an edited file is stripped again.
 */
export const COMPILE_CACHE_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'node-compile');

const mainOf = (service: ServiceName): string => join(REPO_ROOT, 'services', service, 'src', 'main.ts');

/**
 * Fills Node's compile cache for these services as the image build does (deploy/docker/Dockerfile):
 * each service's main runs with ENRICH_WARM_COMPILE_CACHE=1 (WARM_COMPILE_CACHE_ENV,
 * shared/src/runtime/compile-cache.ts), loads its modules and exits, in parallel, about 0.5 s each
 * once the cache is warm. The services started next then find every file's stripped code there and
 * never load Node's TypeScript stripper, as in the image. Without it the first stack after `npm ci`
 * (which empties node_modules/.cache) ran every service with the stripper loaded: the edge idled at
 * 130 MB RSS instead of 109 MB, and that session's first `npm run bench` had it peak at 161 MB, over
 * its 150 MB goal (2026-11-27, docs/operations.md "Compile cache"). Never fails: a service that
 * cannot load reports it when it is started for real.
 */
export async function warmCompileCache(
  services: readonly ServiceName[],
  envOf: (service: ServiceName) => NodeJS.ProcessEnv,
  timeoutMs = 60_000,
): Promise<void> {
  await Promise.all(
    [...new Set(services)].map((service) => {
      const env = envOf(service);
      if (!env.NODE_COMPILE_CACHE) return Promise.resolve();
      return new Promise<void>((done) => {
        const child = spawn(process.execPath, [mainOf(service)], { cwd: REPO_ROOT, env: { ...env, [WARM_COMPILE_CACHE_ENV]: '1' }, stdio: 'ignore' });
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        const finish = (): void => {
          clearTimeout(timer);
          done();
        };
        child.once('exit', finish);
        child.once('error', finish);
      });
    }),
  );
}

/** The process names a stack starts: each service once, the renderer `renderers` times. */
export function processNames(services: readonly ServiceName[], renderers = 1): Array<{ name: string; service: ServiceName }> {
  return services.flatMap(
    (service): Array<{ name: string; service: ServiceName }> =>
      service === 'renderer'
        ? Array.from({ length: Math.max(1, renderers) }, (_, i) => ({ name: i === 0 ? 'renderer' : `renderer-${i + 1}`, service }))
        : [{ name: service, service }],
  );
}

export interface Stack {
  baseUrl: string;
  natsUrl: string;
  /** Keyed by process name: the service's name, or renderer-2, renderer-3, ... for extra renderers. */
  processes: Map<string, ChildProcess>;
  nats: NatsServerHandle | undefined;
  stop(): Promise<void>;
}

export async function waitForReady(baseUrl: string, timeoutMs: number, procs: Map<string, ChildProcess>): Promise<void> {
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

/**
 * Waits until every one of these renderer processes answers render.page's ping. The ping goes to the
 * queue group (one instance each time, chosen by NATS), so it is repeated until each pid has answered.
 */
export async function waitForRenderers(natsUrl: string, pids: readonly number[], timeoutMs: number): Promise<void> {
  const nc = await connectNats({ url: natsUrl, name: 'stack-wait-renderers' });
  const seen = new Set<string>();
  try {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until && !pids.every((p) => seen.has(String(p)))) {
      try {
        const msg = await nc.request(pingSubject(RENDER_PAGE.subject), '', { timeout: 1000 });
        seen.add(String((JSON.parse(msg.string()) as { instance?: string }).instance));
      } catch {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  } finally {
    await nc.close();
  }
  const missing = pids.filter((p) => !seen.has(String(p)));
  if (missing.length) throw new Error(`renderer processes ${missing.join(', ')} did not answer render.page within ${timeoutMs} ms (see their logs)`);
}

/**
 * A child's stdout and stderr, both appended to one file, which is closed once the child's streams
 * have closed. Not `pipe` with its default end: the stream that ended first ended the file, and the
 * other's next write threw ERR_STREAM_WRITE_AFTER_END in this process (2026-11-28: a service that
 * exited at start, writing to stderr only, took down the bench script that started it, before its
 * stop, and left the other services and their nats-server running).
 */
export function logToFile(
  child: { stdout: Readable | null; stderr: Readable | null; once(event: 'close', listener: () => void): unknown },
  path: string,
): void {
  const out = createWriteStream(path, { flags: 'a' });
  child.stdout?.pipe(out, { end: false });
  child.stderr?.pipe(out, { end: false });
  child.once('close', () => out.end());
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
  const processes = new Map<string, ChildProcess>();
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

  const envOf = (service: ServiceName): NodeJS.ProcessEnv => ({
    // The image's compile cache, kept beside the dependencies (filled by warmCompileCache below).
    NODE_COMPILE_CACHE: COMPILE_CACHE_DIR,
    ...process.env,
    ...IMAGE_ENV[service],
    ...common,
    ...(service === 'edge' ? { PORT: String(opts.port) } : {}),
    ...opts.serviceEnv?.[service],
  });

  try {
    await warmCompileCache(opts.services ?? SERVICES, envOf);
    for (const { name, service } of processNames(opts.services ?? SERVICES, opts.renderers)) {
      const env = envOf(service);
      const child = spawn(process.execPath, [mainOf(service)], {
        cwd: REPO_ROOT,
        env,
        stdio: opts.logs === 'inherit' ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
      });
      if (opts.logs === 'files') {
        logToFile(child, join(logDir, `${name}.log`));
      } else if (opts.logs !== 'inherit') {
        child.stdout?.resume();
        child.stderr?.resume();
      }
      processes.set(name, child);
    }
    if ((opts.services ?? SERVICES).includes('edge')) await waitForReady(baseUrl, opts.readyTimeoutMs ?? 90_000, processes);
    const rendererPids = [...processes].flatMap(([name, p]) => (name.startsWith('renderer') && p.pid ? [p.pid] : []));
    if (rendererPids.length > 1) await waitForRenderers(natsUrl, rendererPids, opts.readyTimeoutMs ?? 90_000);
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
