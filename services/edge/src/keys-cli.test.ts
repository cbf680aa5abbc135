import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hashApiKey } from './auth/api-keys.ts';
import { runKeysCommand, UsageError } from './keys-cli.ts';
import { KvStore } from './store/kv.ts';
import { KvBatchStore } from './batch/kv-store.ts';

let nc: NatsConnection;
let store: KvStore;
let storeName: string;
beforeAll(async () => {
  nc = await connect({ servers: inject('natsUrl') });
  storeName = `keys_${randomUUID().slice(0, 8)}`;
  store = new KvStore({ nc, name: storeName });
  await store.init();
});
afterAll(async () => {
  await nc?.close();
});

const run = (...argv: string[]) => runKeysCommand(argv, store, { rateLimit: 60 });

describe('keys CLI', () => {
  it('create prints the plaintext once and stores only its hash; list, show, set, revoke', async () => {
    const created = JSON.parse(await run('create', '--name', 'Acme Corp', '--credits', '500', '--rate-limit', '120', '--json')) as Record<string, unknown>;
    expect(created).toMatchObject({ name: 'Acme Corp', credits_limit: 500, credits_used: 0, rate_limit: 120 });
    const key = created.key as string;
    const id = created.id as string;
    expect(key).toMatch(/^ek_[A-Za-z0-9_-]{43}$/);
    const stored = await store.getKey(id);
    expect(stored?.hash).toBe(hashApiKey(key));
    expect(JSON.stringify(stored)).not.toContain(key);

    expect(await run('list')).toContain(`${id}  active   credits 0/500  rate 120/min  Acme Corp`);
    expect(JSON.parse(await run('list', '--json'))).toEqual([expect.not.objectContaining({ hash: expect.anything() })]);
    await store.recordUsage([
      { requestId: randomUUID(), keyId: id, endpoint: 'enrich', status: 200, credits: 3, durationMs: 840, timestamp: new Date().toISOString() },
    ]);
    const shown = await run('show', id);
    expect(shown).toMatch(/recent usage \(1\):\n.*enrich\s+200\s+3 credits\s+840 ms/);
    expect(await run('set', id, '--credits', '900')).toContain('credits 0/900  rate 120/min');
    expect(await run('set', id, '--rate-limit', '5')).toContain('credits 0/900  rate 5/min');
    expect(await run('revoke', id)).toMatch(/^revoked key_\w+ {2}REVOKED/);
    expect((await store.getKey(id))?.revoked).toBe(true);
  });

  it('create without --rate-limit uses DEFAULT_KEY_RATE_LIMIT; the human output shows the key', async () => {
    const out = await run('create', '--name', 'Default', '--credits', '10');
    expect(out).toMatch(/^Created key_\w+ \(Default\): 10 credits, 60 requests\/min\.\nAPI key \(shown only now, store it safely\):\nek_/);
  });

  it('refuses bad input with a usage error', async () => {
    await expect(run('create', '--name', 'x')).rejects.toThrow(UsageError);
    await expect(run('create', '--name', 'x', '--credits', 'lots')).rejects.toThrow('--credits must be a whole number >= 0, got "lots"');
    await expect(run('set', 'key_missing', '--credits', '1')).rejects.toThrow('no key with id key_missing');
    await expect(run('set', 'key_x')).rejects.toThrow(/set needs --credits and\/or --rate-limit/);
    await expect(run('frobnicate')).rejects.toThrow(/unknown command "frobnicate"/);
  });

  it("runs as a program with the edge's store configuration", async () => {
    const root = join(import.meta.dirname, '..', '..', '..');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(root, 'services/edge/src/keys-cli.ts'), 'create', '--name', 'Proc', '--credits', '7', '--rate-limit', '9', '--json'],
      {
        env: { PATH: process.env.PATH ?? '', NATS_URL: inject('natsUrl'), STORE_NAME: storeName },
      },
    );
    const out = JSON.parse(stdout) as { id: string; key: string };
    expect((await store.findKeyByHash(hashApiKey(out.key)))?.id).toBe(out.id);
  });
});

describe('keys CLI webhook secrets', () => {
  it('create prints the batch-webhook secret; webhook-secret shows the same one, --rotate replaces it', async () => {
    const secrets = new KvBatchStore({ nc, name: storeName, retentionMs: 3_600_000 });
    await secrets.init();
    const runWith = (...argv: string[]) => runKeysCommand(argv, store, { rateLimit: 60 }, secrets);
    const created = JSON.parse(await runWith('create', '--name', 'Hooked', '--credits', '5', '--json')) as { id: string; webhook_secret: string };
    expect(created.webhook_secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(await runWith('webhook-secret', created.id)).toBe(created.webhook_secret);
    const rotated = JSON.parse(await runWith('webhook-secret', created.id, '--rotate', '--json')) as { webhook_secret: string; rotated: boolean };
    expect(rotated.rotated).toBe(true);
    expect(rotated.webhook_secret).not.toBe(created.webhook_secret);
    expect(await secrets.webhookSecret(created.id, { create: false })).toBe(rotated.webhook_secret);
    await expect(runWith('webhook-secret', 'key_unknown')).rejects.toThrow(UsageError);
    expect(await runWith('create', '--name', 'Text', '--credits', '1')).toMatch(
      /Batch webhook signing secret \(again with: keys webhook-secret key_[0-9a-f]+\):\nwhsec_/,
    );
  });
});
