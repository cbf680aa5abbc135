/**
 * Key management: `npm run keys -- <command>`.
 *   create --name NAME --credits N [--rate-limit R] [--json]   prints the plaintext key ONCE
 *   list [--json]
 *   show <id> [--usage N] [--json]                             the key, its credits and recent usage
 *   set <id> [--credits N] [--rate-limit R]
 *   revoke <id>
 *   webhook-secret <id> [--rotate]                           the key's batch-webhook signing secret
 * Uses the same store configuration as the edge (STORE, NATS_URL, MONGODB_URI, STORE_NAME). When neither
 * NATS_URL nor MONGODB_URI is set it uses the stack `npm start` is running (.data/stack.json), and
 * when there is none it says so and exits 1 rather than guess a server.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNats } from '@enrich/shared/nats';
import { BaseConfigSchema, loadConfig, natsCredentials } from '@enrich/shared/runtime';
import { generateApiKey } from './auth/api-keys.ts';
import { loadEdgeConfig } from './config.ts';
import { findLocalStack, START_HINT } from './local-stack.ts';
import { batchConfigOf } from './batch/config.ts';
import { KvBatchStore } from './batch/kv-store.ts';
import { MongoBatchStore } from './batch/mongo-store.ts';
import type { BatchStore } from './batch/store.ts';
import { KvStore } from './store/kv.ts';
import { MongoStore } from './store/mongo.ts';
import type { ApiKeyRecord, Store } from './store/port.ts';

const USAGE = `usage: keys create --name NAME --credits N [--rate-limit R] [--json]
       keys list [--json]
       keys show <id> [--usage N] [--json]
       keys set <id> [--credits N] [--rate-limit R]
       keys revoke <id>
       keys webhook-secret <id> [--rotate]`;

export class UsageError extends Error {}
/** No store to talk to: neither configured nor a running local stack. */
export class NoStackError extends Error {}

type Env = Record<string, string | undefined>;

/** The environment to read the store configuration from: the caller's, or that of the stack `npm start` runs. */
export function resolveStoreEnv(env: Env): { env: Env; via?: string } {
  if (env.NATS_URL || env.MONGODB_URI) return { env };
  const found = findLocalStack(env);
  if (found.state === 'missing') throw new NoStackError(`no running stack found (${found.file} does not exist) and NATS_URL is not set.\n${START_HINT}`);
  if (found.state === 'stale') throw new NoStackError(`no running stack: ${found.file} is stale, ${found.reason}.\n${START_HINT}`);
  const { stack } = found;
  if (stack.store.kind === 'mongo') {
    throw new NoStackError(
      `the stack at ${stack.edge.baseUrl} keeps its keys in MongoDB, whose URI is not recorded: set MONGODB_URI (and STORE_NAME=${stack.store.name}).`,
    );
  }
  return {
    env: { ...env, NATS_URL: stack.natsUrl, STORE: 'kv', STORE_NAME: stack.store.name },
    via: `the stack at ${stack.edge.baseUrl} (NATS ${stack.natsUrl}, from ${found.file})`,
  };
}

function wholeNumber(flag: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min) throw new UsageError(`--${flag} must be a whole number >= ${min}, got "${value}"`);
  return Number(value);
}

function publicView(k: ApiKeyRecord): Record<string, unknown> {
  return {
    id: k.id,
    name: k.name,
    credits_limit: k.credits_limit,
    credits_used: k.credits_used,
    rate_limit: k.rate_limit,
    revoked: k.revoked,
    created_at: k.created_at,
    open_reservations: k.pending.length,
  };
}

function line(k: ApiKeyRecord): string {
  return `${k.id}  ${k.revoked ? 'REVOKED' : 'active '}  credits ${k.credits_used}/${k.credits_limit}  rate ${k.rate_limit}/min  ${k.name}`;
}

/** Where webhook secrets live (the batch store); optional so a store-only caller still works. */
export type SecretStore = Pick<BatchStore, 'webhookSecret'>;

/** Runs one command against a store; returns the text to print. */
export async function runKeysCommand(argv: string[], store: Store, defaults: { rateLimit: number }, secrets?: SecretStore): Promise<string> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      credits: { type: 'string' },
      'rate-limit': { type: 'string' },
      usage: { type: 'string' },
      json: { type: 'boolean', default: false },
      rotate: { type: 'boolean', default: false },
    },
  });
  const [command, id] = positionals;
  const needId = (): string => {
    if (!id) throw new UsageError(`${command} needs a key id\n${USAGE}`);
    return id;
  };
  const missing = (): never => {
    throw new UsageError(`no key with id ${id}`);
  };
  switch (command) {
    case 'create': {
      if (!values.name) throw new UsageError(`create needs --name\n${USAGE}`);
      const credits = wholeNumber('credits', values.credits, 0);
      if (credits === undefined) throw new UsageError(`create needs --credits\n${USAGE}`);
      const rateLimit = wholeNumber('rate-limit', values['rate-limit'], 1) ?? defaults.rateLimit;
      const gen = generateApiKey();
      const rec = await store.createKey({ id: gen.id, name: values.name, hash: gen.hash, credits_limit: credits, rate_limit: rateLimit });
      const secret = secrets ? await secrets.webhookSecret(rec.id) : null;
      if (values.json)
        return JSON.stringify({
          key: gen.plaintext,
          id: rec.id,
          name: rec.name,
          credits_limit: rec.credits_limit,
          credits_used: rec.credits_used,
          rate_limit: rec.rate_limit,
          ...(secret ? { webhook_secret: secret } : {}),
        });
      const hook = secret ? `\nBatch webhook signing secret (again with: keys webhook-secret ${rec.id}):\n${secret}` : '';
      return `Created ${rec.id} (${rec.name}): ${credits} credits, ${rateLimit} requests/min.\nAPI key (shown only now, store it safely):\n${gen.plaintext}${hook}`;
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
    case 'webhook-secret': {
      const key = (await store.getKey(needId())) ?? missing();
      if (!secrets) throw new UsageError('webhook secrets need the batch store');
      const secret = (await secrets.webhookSecret(key.id, { rotate: values.rotate })) ?? '';
      return values.json ? JSON.stringify({ id: key.id, webhook_secret: secret, rotated: values.rotate }) : secret;
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"\n${USAGE}` : USAGE);
  }
}

async function connectStore(): Promise<{ store: Store; secrets: KvBatchStore | MongoBatchStore; nc: NatsConnection | undefined; defaultRateLimit: number }> {
  const { env, via } = resolveStoreEnv(process.env);
  const config = loadEdgeConfig(env);
  const defaultRateLimit = config.defaultKeyRateLimit;
  if (config.store.kind === 'mongo') {
    return {
      store: new MongoStore({ uri: config.store.uri, name: config.store.name }),
      secrets: new MongoBatchStore({ uri: config.store.uri, name: config.store.name }),
      nc: undefined,
      defaultRateLimit,
    };
  }
  const nc = await connectNats({
    url: config.natsUrl,
    name: 'edge-keys-cli',
    waitMs: via ? 1000 : 5000,
    ...natsCredentials(loadConfig(BaseConfigSchema, env)),
  }).catch((err: unknown) => {
    throw via ? new NoStackError(`${via} does not answer: ${(err as Error).message}.\n${START_HINT}`) : err;
  });
  if (via) process.stderr.write(`keys: using ${via}\n`);
  return {
    store: new KvStore({ nc, name: config.store.name }),
    secrets: new KvBatchStore({ nc, name: config.store.name, retentionMs: batchConfigOf(config).retentionMs }),
    nc,
    defaultRateLimit,
  };
}

async function main(): Promise<void> {
  let connected: Awaited<ReturnType<typeof connectStore>>;
  try {
    connected = await connectStore();
  } catch (err) {
    process.stderr.write(`keys: ${(err as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  const { store, secrets, nc } = connected;
  try {
    await store.init();
    await secrets.init();
    process.stdout.write(`${await runKeysCommand(process.argv.slice(2), store, { rateLimit: connected.defaultRateLimit }, secrets)}\n`);
  } catch (err) {
    process.stderr.write(`keys: ${(err as Error).message}\n`);
    process.exitCode = err instanceof UsageError || String((err as { code?: string }).code).startsWith('ERR_PARSE_ARGS') ? 2 : 1;
  } finally {
    await store.close();
    if (secrets instanceof MongoBatchStore) await secrets.close();
    await nc?.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
