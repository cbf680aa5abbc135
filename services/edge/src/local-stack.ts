/**
 * `.data/stack.json`: how to reach the stack `npm start` is running (written by the local launcher,
 * removed when it stops), so `npm run keys` in a second terminal talks to that stack's store instead
 * of a NATS server that happens to listen on the default port. Holds no secrets: a MongoDB store is
 * recorded by kind only (its URI may carry credentials), so the CLI asks for MONGODB_URI then.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

export const LocalStackSchema = z.object({
  version: z.literal(1),
  /** The launcher's process id: the stack is gone when this process is. */
  pid: z.number().int().positive(),
  startedAt: z.iso.datetime(),
  natsUrl: z.string().min(1),
  /** Whether the launcher started that nats-server itself (else it used NATS_URL). */
  natsStartedHere: z.boolean(),
  store: z.object({ kind: z.enum(['kv', 'mongo']), name: z.string().min(1) }),
  edge: z.object({ port: z.number().int().positive(), baseUrl: z.string().min(1) }),
  demoSite: z.string().optional(),
});
export type LocalStack = z.infer<typeof LocalStackSchema>;

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** DATA_DIR (the launcher's variable) or the repository's .data. */
export function stackFilePath(env: Record<string, string | undefined> = process.env): string {
  return join(env.DATA_DIR || join(REPO_ROOT, '.data'), 'stack.json');
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, it is just not ours to signal.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export type StackLookup =
  | { state: 'running'; stack: LocalStack; file: string }
  | { state: 'missing'; file: string }
  | { state: 'stale'; file: string; reason: string };

/** Reads the stack file; a file whose launcher is gone, or that does not parse, is stale. */
export function findLocalStack(env: Record<string, string | undefined> = process.env): StackLookup {
  const file = stackFilePath(env);
  if (!existsSync(file)) return { state: 'missing', file };
  let parsed: LocalStack;
  try {
    parsed = LocalStackSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (err) {
    return { state: 'stale', file, reason: `it cannot be read (${(err as Error).message.split('\n')[0]})` };
  }
  if (!processAlive(parsed.pid)) return { state: 'stale', file, reason: `the launcher that wrote it (pid ${parsed.pid}) is not running` };
  return { state: 'running', stack: parsed, file };
}

export const START_HINT =
  'Start the stack with `npm start` (in another terminal; give the CLI the same DATA_DIR if the stack has one), or point the CLI at the store the edge uses: set NATS_URL (and STORE_NAME if not "enrich"), or MONGODB_URI.';
