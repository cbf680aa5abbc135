/**
 * NATS with credentials, as deployed: a real nats-server runs deploy/docker/nats/nats.conf (only its
 * ports and store directory moved to this machine) with NATS_USER / NATS_PASSWORD in its environment,
 * as docker-compose.yml starts it. Clients with the credentials work (core and JetStream); without
 * them, or with a wrong password, the connection fails at once with a message that says so; a
 * service started as the images start it connects with the credentials from its environment.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnavailableError } from '@enrich/shared/errors';
import { connectNats } from '@enrich/shared/nats';
import { freePort, natsServerBinary } from '../support/nats-server.ts';

const root = join(import.meta.dirname, '..', '..');
const USER = 'enrich';
const PASSWORD = 'Zq8-x_Y.k2secret'; // the characters docs/operations.md allows

/** deploy/docker/nats/nats.conf with this machine's ports and a temporary store; nothing else changed. */
function localConf(dir: string, port: number, httpPort: number): string {
  const conf = readFileSync(join(root, 'deploy/docker/nats/nats.conf'), 'utf8');
  const moved = conf
    .replace(/^port: 4222$/m, `port: ${port}`)
    .replace(/^http_port: 8222$/m, `http_port: ${httpPort}`)
    .replace(/^ {2}store_dir: \/data$/m, `  store_dir: ${dir}`);
  expect(moved.split('\n').filter((l, i) => l !== conf.split('\n')[i])).toHaveLength(3);
  const file = join(dir, 'nats.conf');
  writeFileSync(file, moved);
  return file;
}

function startServer(conf: string, env: Record<string, string>): { proc: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const proc = spawn(natsServerBinary(), ['-a', '127.0.0.1', '-c', conf], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  proc.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  return { proc, output: () => out, exited: new Promise((r) => proc.once('exit', (code) => r(code))) };
}

let dir: string;
let server: ReturnType<typeof startServer>;
let url: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nats-auth-'));
  const port = await freePort();
  server = startServer(localConf(dir, port, await freePort()), { NATS_USER: USER, NATS_PASSWORD: PASSWORD });
  url = `nats://127.0.0.1:${port}`;
  // Ready when a client with the credentials gets in (connectNats waits for the server to listen).
  await (await connectNats({ url, name: 'nats-auth-ready', waitMs: 10_000, user: USER, pass: PASSWORD })).close();
});

afterAll(async () => {
  server?.proc.kill('SIGTERM');
  await server?.exited;
  rmSync(dir, { recursive: true, force: true });
});

describe('NATS with the deployed authorization block', () => {
  it('accepts the credentials, for requests and JetStream', async () => {
    const nc = await connectNats({ url, name: 'nats-auth-test', user: USER, pass: PASSWORD });
    try {
      const sub = nc.subscribe('auth.echo', {
        callback: (_err, msg) => {
          msg.respond(msg.data);
        },
      });
      expect(new TextDecoder().decode((await nc.request('auth.echo', 'hello', { timeout: 5_000 })).data)).toBe('hello');
      sub.unsubscribe();
      const jsm = await jetstreamManager(nc);
      expect((await jsm.getAccountInfo()).limits).toBeDefined();
    } finally {
      await nc.close();
    }
  });

  it('refuses a client without credentials at once, saying which variables to set', async () => {
    // waitMs is long: an answer naming the refusal (not "cannot connect") shows it did not wait it out.
    const err = await connectNats({ url, name: 'nats-auth-anonymous', waitMs: 60_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as Error).message).toMatch(/^NATS at nats:\/\/127\.0\.0\.1:\d+ refused the connection without credentials; set NATS_USER and NATS_PASSWORD: /);
    expect((err as Error).message).toMatch(/authorization violation/i);
  });

  it('refuses a wrong password, naming the user and never the password', async () => {
    const err = await connectNats({ url, name: 'nats-auth-wrong', waitMs: 60_000, user: USER, pass: 'not-it' }).catch((e: unknown) => e);
    expect((err as Error).message).toContain(`refused the connection as user "${USER}" (NATS_USER / NATS_PASSWORD)`);
    expect((err as Error).message).not.toContain('not-it');
  });

  it('does not start without the credentials in its environment', async () => {
    const conf = localConf(mkdtempSync(join(dir, 'bare-')), await freePort(), await freePort());
    const bare = startServer(conf, {});
    expect(await bare.exited).not.toBe(0);
    expect(bare.output()).toContain("variable reference for 'NATS_USER'");
  });
});

describe('a service started as the images start it', () => {
  function startBrand(env: Record<string, string>) {
    const proc = spawn(process.execPath, ['services/brand/src/main.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NATS_URL: url, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    proc.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    return { proc, output: () => out, exited: new Promise<number | null>((r) => proc.once('exit', (code) => r(code))) };
  }

  it('connects with NATS_USER / NATS_PASSWORD from its environment', async () => {
    const brand = startBrand({ NATS_USER: USER, NATS_PASSWORD: PASSWORD });
    try {
      await new Promise<void>((resolve, reject) => {
        brand.proc.stdout.on('data', () => {
          if (brand.output().includes('"msg":"brand started"')) resolve();
        });
        void brand.exited.then((code) => reject(new Error(`brand exited with ${code}:\n${brand.output()}`)));
      });
      expect(brand.output()).not.toContain(PASSWORD); // the password is never logged
    } finally {
      brand.proc.kill('SIGTERM');
      await brand.exited;
    }
  });

  it('stops at start without them, saying why', async () => {
    const brand = startBrand({});
    await brand.exited;
    expect(brand.output()).toContain('refused the connection without credentials; set NATS_USER and NATS_PASSWORD');
  });

  it('refuses a user without a password as a configuration error (exit 78)', async () => {
    const brand = startBrand({ NATS_USER: USER });
    expect(await brand.exited).toBe(78);
    expect(brand.output()).toContain('NATS_PASSWORD=(unset): NATS_USER and NATS_PASSWORD go together');
  });
});
