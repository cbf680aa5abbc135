/**
 * `npm start`: the whole system on this machine, on embedded defaults. Starts nats-server with
 * JetStream (data in .data/nats) unless NATS_URL is set, every service as its own process, a demo
 * site on 127.0.0.2 (so the printed curl works without internet), waits for /ready, creates a demo
 * API key once, and prints a working curl. Ctrl-C stops everything it started, and nothing else.
 * While it runs, DATA_DIR/stack.json says how to reach it (NATS URL, store, edge URL, pid), so that
 * `npm run keys` in another terminal uses this stack's store; the file goes when the launcher does.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { loadConfig } from '@enrich/shared/runtime';
import { findLocalStack, type LocalStack } from '../../services/edge/src/local-stack.ts';
import { REPO_ROOT, createApiKey, startStack } from './stack.ts';
import { serveStatic } from './static-site.ts';

const config = loadConfig(
  z.object({
    PORT: z.string().regex(/^\d+$/).transform(Number).default(8080),
    NATS_URL: z.string().optional(),
    LOG_LEVEL: z.string().default('info'),
    DATA_DIR: z.string().default(join(REPO_ROOT, '.data')),
    // Read by the edge itself; the launcher only records which store the stack uses.
    STORE: z.enum(['kv', 'mongo']).optional(),
    MONGODB_URI: z.string().optional(),
    STORE_NAME: z.string().default('enrich'),
    // Renderer processes (queue-group subscribers on render.page); each runs RENDER_CONCURRENCY pages.
    RENDERERS: z
      .string()
      .regex(/^[1-9]\d?$/, { message: 'must be a whole number from 1 to 99' })
      .transform(Number)
      .default(1),
  }),
);

const say = (line = ''): void => void process.stdout.write(`${line}\n`);

const running = findLocalStack({ DATA_DIR: config.DATA_DIR });
if (running.state === 'running') {
  process.stderr.write(
    `a stack is already running at ${running.stack.edge.baseUrl} (launcher pid ${running.stack.pid}, ${running.file}); stop it first (Ctrl-C in its terminal)\n`,
  );
  process.exit(1);
}

const demo = await serveStatic(join(REPO_ROOT, 'deploy/local/demo-site'), { host: '127.0.0.2' });
say(`starting the stack (logs in ${join(config.DATA_DIR, 'logs')}/<service>.log) ...`);
const stack = await startStack({
  port: config.PORT,
  natsUrl: config.NATS_URL,
  dataDir: config.DATA_DIR,
  persistNats: true,
  logs: 'files',
  renderers: config.RENDERERS,
  // The demo site lives on loopback, which the SSRF guard refuses by default: allow that one address only.
  env: { LOG_LEVEL: config.LOG_LEVEL, ALLOW_PRIVATE_TARGETS: '127.0.0.2/32' },
}).catch(async (err: unknown) => {
  await demo.close();
  process.stderr.write(`could not start: ${(err as Error).message}\n`);
  process.exit(1);
});

const keyFile = join(config.DATA_DIR, 'demo-key.json');
async function demoKey(): Promise<string> {
  if (existsSync(keyFile)) {
    const saved = JSON.parse(readFileSync(keyFile, 'utf8')) as { key: string; natsUrl?: string };
    // A key saved for another store (NATS_URL changed, data wiped) answers 401: make a new one then.
    const probe = await fetch(`${stack.baseUrl}/classify`, { headers: { 'x-api-key': saved.key } });
    if (probe.status !== 401) return saved.key;
  }
  const created = await createApiKey(stack.natsUrl, { name: 'demo', credits: 1000, rateLimit: 60 });
  writeFileSync(keyFile, JSON.stringify({ key: created.key, id: created.id }, null, 2), { mode: 0o600 });
  return created.key;
}
const key = await demoKey();

const stackFile = join(config.DATA_DIR, 'stack.json');
const record: LocalStack = {
  version: 1,
  pid: process.pid,
  startedAt: new Date().toISOString(),
  natsUrl: stack.natsUrl,
  natsStartedHere: stack.nats !== undefined,
  store: { kind: config.STORE ?? (config.MONGODB_URI ? 'mongo' : 'kv'), name: config.STORE_NAME },
  edge: { port: config.PORT, baseUrl: stack.baseUrl },
  demoSite: demo.origin,
};
writeFileSync(stackFile, `${JSON.stringify(record, null, 2)}\n`);
// Removed on every way out (Ctrl-C, a crash); a file left by a SIGKILL names a dead pid, which `keys` detects.
process.on('exit', () => {
  const now = findLocalStack({ DATA_DIR: config.DATA_DIR });
  if (now.state === 'running' && now.stack.pid === process.pid) rmSync(stackFile, { force: true });
});

say();
say(
  `  Web enrichment API is up at ${stack.baseUrl}   (NATS ${stack.natsUrl}${stack.nats ? ', started here' : ''}${config.RENDERERS > 1 ? `; ${config.RENDERERS} renderer processes` : ''})`,
);
say(`  Playground: ${stack.baseUrl}/    API docs: ${stack.baseUrl}/docs    demo key (1000 credits): ${key}`);
say(`  Keys: npm run keys -- create --name acme --credits 5000   (uses this stack, via ${stackFile})`);
say();
say('  Try it on the demo site served locally:');
say(`    curl -s -H 'X-API-Key: ${key}' '${stack.baseUrl}/enrich?url=${encodeURIComponent(demo.origin + '/')}&screenshotColors=4'`);
say('  Or on any public site (needs internet):');
say(`    curl -s -H 'X-API-Key: ${key}' '${stack.baseUrl}/enrich?url=example.com'`);
say();
say('  Ctrl-C stops everything.');

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    say('\nstopping ...');
    void Promise.all([stack.stop(), demo.close()]).then(() => process.exit(0));
  });
}
for (const [name, proc] of stack.processes) {
  proc.once('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`service ${name} exited (${code ?? signal}); see ${join(config.DATA_DIR, 'logs', `${name}.log`)}\n`);
  });
}
