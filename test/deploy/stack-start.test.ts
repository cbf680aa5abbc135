/**
 * A stack whose start fails (deploy/local/stack.ts, as `npm start`, the eval and the bench start it):
 * the service that failed says why in its log, and nothing the start began is left running.
 * Until 2026-11-28 a service that exited writing to stderr only could end its log file before the
 * stderr bytes arrived; the write then threw in the starting process, which died before stopping
 * the services it had spawned and their nats-server.
 */
import { EventEmitter, once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../deploy/local/nats-server.ts';
import { logToFile, startStack } from '../../deploy/local/stack.ts';

const dir = mkdtempSync(join(tmpdir(), 'stack-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Pids of running processes whose command line or environment holds `marker`: a stack's services get
 * its data dir in their environment, and its nats-server, with `persistNats`, on its command line.
 */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'latin1');
      if (cmdline.includes(marker) || readFileSync(`/proc/${entry}/environ`, 'latin1').includes(marker)) found.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** The file's text once it holds `expected` (writes to it are asynchronous), or after 5 s whatever it holds. */
async function textOnceIn(file: string, expected: RegExp): Promise<string> {
  const until = Date.now() + 5_000;
  for (;;) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      // not created yet
    }
    if (expected.test(text) || Date.now() > until) return text;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('a stack that fails to start', () => {
  it("keeps a child's stderr in its log after its stdout has ended, and closes the file when the child closes", async () => {
    const child = Object.assign(new EventEmitter(), { stdout: new PassThrough(), stderr: new PassThrough() });
    const file = join(dir, 'child.log');
    logToFile(child, file);
    child.stdout.end('out line\n');
    await new Promise((r) => setTimeout(r, 50)); // stdout's end has reached the file stream
    const stderrEnded = once(child.stderr, 'end');
    child.stderr.end('err line after stdout ended\n');
    // A real child's 'close' comes after both of its streams have ended (at most 5 s here, so a broken pipe fails fast).
    await Promise.race([stderrEnded, new Promise((r) => setTimeout(r, 5_000))]);
    child.emit('close');
    expect(await textOnceIn(file, /err line/)).toBe('out line\nerr line after stdout ended\n');
  });

  it('is refused naming the service, whose log says why, and leaves none of its processes running', async () => {
    const dataDir = join(dir, 'stack');
    // Node refuses this V8 flag in NODE_OPTIONS: it writes why on stderr and exits 9 before any code runs.
    const start = startStack({
      port: await freePort(),
      dataDir,
      logs: 'files',
      persistNats: true,
      services: ['company', 'edge'],
      env: { LOG_LEVEL: 'warn' },
      serviceEnv: { edge: { NODE_OPTIONS: '--optimize-for-size' } },
      readyTimeoutMs: 60_000,
    });
    await expect(start).rejects.toThrow(/service edge exited with code 9 during start/);
    const reason = /--optimize-for-size is not allowed in NODE_OPTIONS/;
    expect(await textOnceIn(join(dataDir, 'logs', 'edge.log'), reason)).toMatch(reason);
    // The company service it had started and the nats-server are gone.
    expect(processesWith(dataDir)).toEqual([]);
  }, 90_000);
});
