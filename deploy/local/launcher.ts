/**
 * `npm start`: the whole system on this machine, on embedded defaults. Starts nats-server with
 * JetStream (data in .data/nats) unless NATS_URL is set, every service as its own process, a demo
 * site on 127.0.0.2 (so the printed curl works without internet), waits for /ready, creates a demo
 * API key once, and prints a working curl. Ctrl-C stops everything it started, and nothing else.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { loadConfig } from '@enrich/shared/runtime';
import { REPO_ROOT, createApiKey, startStack } from './stack.ts';
import { serveStatic } from './static-site.ts';

const config = loadConfig(
  z.object({
    PORT: z.string().regex(/^\d+$/).transform(Number).default(8080),
    NATS_URL: z.string().optional(),
    LOG_LEVEL: z.string().default('info'),
    DATA_DIR: z.string().default(join(REPO_ROOT, '.data')),
  }),
);

const say = (line = ''): void => void process.stdout.write(`${line}\n`);

const demo = await serveStatic(join(REPO_ROOT, 'deploy/local/demo-site'), { host: '127.0.0.2' });
say(`starting the stack (logs in ${join(config.DATA_DIR, 'logs')}/<service>.log) ...`);
const stack = await startStack({
  port: config.PORT,
  natsUrl: config.NATS_URL,
  dataDir: config.DATA_DIR,
  persistNats: true,
  logs: 'files',
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

say();
say(`  Web enrichment API is up at ${stack.baseUrl}   (NATS ${stack.natsUrl}${stack.nats ? ', started here' : ''})`);
say(`  API docs: ${stack.baseUrl}/docs    demo key (1000 credits): ${key}`);
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
