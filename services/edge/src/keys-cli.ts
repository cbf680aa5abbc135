/**
 * Key management: `npm run keys -- <command>`.
 *   create --name NAME --credits N [--rate-limit R] [--json]   prints the plaintext key ONCE
 *   list [--json]
 *   show <id> [--usage N] [--json]                             the key, its credits and recent usage
 *   set <id> [--credits N] [--rate-limit R]
 *   revoke <id>
 * Uses the same store configuration as the edge (STORE, NATS_URL, MONGODB_URI, STORE_NAME).
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { connectNats } from '@enrich/shared/nats';
import { generateApiKey } from './auth/api-keys.ts';
import { loadEdgeConfig } from './config.ts';
import { KvStore } from './store/kv.ts';
import { MongoStore } from './store/mongo.ts';
import type { ApiKeyRecord, Store } from './store/port.ts';

const USAGE = `usage: keys create --name NAME --credits N [--rate-limit R] [--json]
       keys list [--json]
       keys show <id> [--usage N] [--json]
       keys set <id> [--credits N] [--rate-limit R]
       keys revoke <id>`;

export class UsageError extends Error {}

function wholeNumber(flag: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min) throw new UsageError(`--${flag} must be a whole number >= ${min}, got "${value}"`);
  return Number(value);
}

function publicView(k: ApiKeyRecord): Record<string, unknown> {
  return { id: k.id, name: k.name, credits_limit: k.credits_limit, credits_used: k.credits_used, rate_limit: k.rate_limit, revoked: k.revoked, created_at: k.created_at, open_reservations: k.pending.length };
}

function line(k: ApiKeyRecord): string {
  return `${k.id}  ${k.revoked ? 'REVOKED' : 'active '}  credits ${k.credits_used}/${k.credits_limit}  rate ${k.rate_limit}/min  ${k.name}`;
}

/** Runs one command against a store; returns the text to print. */
export async function runKeysCommand(argv: string[], store: Store, defaults: { rateLimit: number }): Promise<string> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      credits: { type: 'string' },
      'rate-limit': { type: 'string' },
      usage: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [command, id] = positionals;
  const needId = (): string => {
    if (!id) throw new UsageError(`${command} needs a key id\n${USAGE}`);
    return id;
  };
  const missing = (): never => { throw new UsageError(`no key with id ${id}`); };
  switch (command) {
    case 'create': {
      if (!values.name) throw new UsageError(`create needs --name\n${USAGE}`);
      const credits = wholeNumber('credits', values.credits, 0);
      if (credits === undefined) throw new UsageError(`create needs --credits\n${USAGE}`);
      const rateLimit = wholeNumber('rate-limit', values['rate-limit'], 1) ?? defaults.rateLimit;
      const gen = generateApiKey();
      const rec = await store.createKey({ id: gen.id, name: values.name, hash: gen.hash, credits_limit: credits, rate_limit: rateLimit });
      if (values.json) return JSON.stringify({ key: gen.plaintext, id: rec.id, name: rec.name, credits_limit: rec.credits_limit, credits_used: rec.credits_used, rate_limit: rec.rate_limit });
      return `Created ${rec.id} (${rec.name}): ${credits} credits, ${rateLimit} requests/min.\nAPI key (shown only now, store it safely):\n${gen.plaintext}`;
    }
    case 'list': {
      const keys = await store.listKeys();
      if (values.json) return JSON.stringify(keys.map(publicView));
      return keys.length === 0 ? 'no keys' : keys.map(line).join('\n');
    }
    case 'show': {
      const key = (await store.getKey(needId())) ?? missing();
      const usage = await store.listUsage(key.id, wholeNumber('usage', values.usage, 1) ?? 20);
      if (values.json) return JSON.stringify({ ...publicView(key), usage });
      const rows = usage.map((u) => `  ${u.timestamp}  ${u.endpoint.padEnd(10)} ${u.status}  ${u.credits} credits  ${u.durationMs} ms  ${u.requestId}`);
      return [line(key), `recent usage (${usage.length}):`, ...rows].join('\n');
    }
    case 'set': {
      const update = { credits_limit: wholeNumber('credits', values.credits, 0), rate_limit: wholeNumber('rate-limit', values['rate-limit'], 1) };
      if (update.credits_limit === undefined && update.rate_limit === undefined) throw new UsageError(`set needs --credits and/or --rate-limit\n${USAGE}`);
      const key = (await store.updateKeyLimits(needId(), update)) ?? missing();
      return values.json ? JSON.stringify(publicView(key)) : line(key);
    }
    case 'revoke': {
      const key = (await store.revokeKey(needId())) ?? missing();
      return values.json ? JSON.stringify(publicView(key)) : `revoked ${line(key)}`;
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"\n${USAGE}` : USAGE);
  }
}

async function main(): Promise<void> {
  const config = loadEdgeConfig();
  const nc = config.store.kind === 'kv' ? await connectNats({ url: config.natsUrl, name: 'edge-keys-cli', waitMs: 5000 }) : undefined;
  const store: Store = config.store.kind === 'mongo' ? new MongoStore({ uri: config.store.uri, name: config.store.name }) : new KvStore({ nc: nc!, name: config.store.name });
  try {
    await store.init();
    process.stdout.write(`${await runKeysCommand(process.argv.slice(2), store, { rateLimit: config.defaultKeyRateLimit })}\n`);
  } catch (err) {
    process.stderr.write(`keys: ${(err as Error).message}\n`);
    process.exitCode = err instanceof UsageError || String((err as { code?: string }).code).startsWith('ERR_PARSE_ARGS') ? 2 : 1;
  } finally {
    await store.close();
    await nc?.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
