/**
 * Starts a private nats-server with JetStream on a free loopback port, for tests and the local
 * launcher. Never touches a server it did not start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface NatsServerHandle {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

export function natsServerBinary(): string {
  for (const p of [process.env.NATS_SERVER_BIN, '/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server']) {
    if (p && existsSync(p)) return p;
  }
  return 'nats-server';
}

export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, timeoutMs: number, proc: ChildProcess): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`nats-server exited with code ${proc.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = tcpConnect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nats-server did not listen on ${port} within ${timeoutMs} ms`);
}

export async function startNatsServer(opts: { storeDir?: string; port?: number } = {}): Promise<NatsServerHandle> {
  const port = opts.port ?? (await freePort());
  const ownDir = opts.storeDir === undefined;
  const storeDir = opts.storeDir ?? mkdtempSync(join(tmpdir(), 'enrich-nats-'));
  const args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir];
  const proc = spawn(natsServerBinary(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  try {
    await waitForPort(port, 10_000, proc);
  } catch (err) {
    proc.kill('SIGKILL');
    throw new Error(`${(err as Error).message}\n${stderr}`);
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    process: proc,
    async stop() {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (proc.exitCode === null) proc.kill('SIGKILL');
      }
      if (ownDir) rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
