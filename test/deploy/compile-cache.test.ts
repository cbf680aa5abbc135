/**
 * The image fills Node's compile cache when it is built (deploy/docker/Dockerfile, app stage:
 * ENRICH_WARM_COMPILE_CACHE=1 runs the service's main until its modules are loaded), so a service
 * started from it reads its stripped TypeScript from the cache and never loads Node's type stripper.
 * Run here as the image runs it, on one service's real main.ts, with Node's own account of the cache
 * (NODE_DEBUG_NATIVE=COMPILE_CACHE) on stderr.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, warmCompileCache } from '../../deploy/local/stack.ts';

const cacheDir = mkdtempSync(join(tmpdir(), 'compile-cache-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

/**
 * Node's account is not a complete list on a loaded machine: of 62 files read from the cache, 55 to
 * 62 were named as read in a full suite run. Whether anything was stripped is exact ("no transpile
 * cache", "saving transpilation cache"), so that is what is compared; "read" only has to be there.
 */

/** Starts a service (brand unless told) as the image build does; its stderr names each file the cache had or lacked. */
function warmRun(dir = cacheDir, uid?: number, service = 'brand'): { status: number | null; hits: number; misses: string[]; stripped: boolean } {
  const run = spawnSync(process.execPath, [join(REPO_ROOT, `services/${service}/src/main.ts`)], {
    cwd: REPO_ROOT,
    ...(uid === undefined ? {} : { uid, gid: uid }),
    env: { ...process.env, NODE_ENV: 'production', ENRICH_WARM_COMPILE_CACHE: '1', NODE_COMPILE_CACHE: dir, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' },
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024, // a line per cached file, JavaScript dependencies included
  });
  const lines = run.stderr.split('\n');
  const files = (re: RegExp): string[] => lines.flatMap((l) => re.exec(l)?.[1] ?? []);
  return {
    status: run.status,
    hits: run.stderr.match(/retrieving transpile cache for StrippedTypeScript /g)?.length ?? 0,
    misses: files(/no transpile cache for StrippedTypeScript (\S+)/),
    stripped: run.stderr.includes('saving transpilation cache'),
  };
}

describe('compile cache', () => {
  it('is filled by the warm run, which exits without config or NATS, and then serves every TypeScript file of the service', () => {
    const first = warmRun();
    expect(first.status).toBe(0);
    expect(first.stripped).toBe(true);
    // Cold: every file was stripped, the service's main and the shared runtime among them.
    expect(first.misses.some((f) => f.endsWith('services/brand/src/main.ts'))).toBe(true);
    expect(first.misses.some((f) => f.endsWith('shared/src/runtime/service.ts'))).toBe(true);
    expect(readdirSync(cacheDir).length).toBeGreaterThan(0);

    const second = warmRun();
    expect(second.status).toBe(0);
    expect(second.misses).toEqual([]);
    expect(second.stripped).toBe(false);
    expect(second.hits).toBeGreaterThan(0);
  });

  // The local launcher does what the image build does before it starts a stack (deploy/local/stack.ts),
  // so the first stack after `npm ci` (which empties node_modules/.cache) runs as the image does.
  it("is filled by the launcher's warm step for every service it names, before they start", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compile-cache-launcher-'));
    try {
      await warmCompileCache(['edge', 'company'], () => ({ ...process.env, NODE_COMPILE_CACHE: dir }));
      for (const service of ['edge', 'company']) {
        const run = warmRun(dir, undefined, service);
        expect(run.status).toBe(0);
        expect(run.misses).toEqual([]);
        expect(run.stripped).toBe(false);
        expect(run.hits).toBeGreaterThan(0);
      }
      // A service it did not name is cold in that cache.
      expect(warmRun(dir, undefined, 'classifier').misses.some((f) => f.endsWith('services/classifier/src/main.ts'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // The image fills the cache as the user it runs as and then leaves it root's and read-only
  // (deploy/docker/Dockerfile), which also suits a read-only root filesystem: Node must still read it.
  it('is read where the process may not write it, when it was filled as the same user', (ctx) => {
    if (process.getuid?.() !== 0) {
      console.log('compile-cache: skipped the read-only case: it needs root to run as another user');
      ctx.skip();
    }
    const NOBODY = 65534;
    const dir = mkdtempSync(join(tmpdir(), 'compile-cache-ro-'));
    try {
      chownSync(dir, NOBODY, NOBODY);
      const filled = warmRun(dir, NOBODY);
      expect(filled.status).toBe(0);
      expect(filled.misses.length).toBeGreaterThan(0);
      const lockDown = (path: string): void => {
        chownSync(path, 0, 0);
        chmodSync(path, 0o755);
        for (const entry of readdirSync(path, { withFileTypes: true })) {
          const child = join(path, entry.name);
          if (entry.isDirectory()) lockDown(child);
          else {
            chownSync(child, 0, 0);
            chmodSync(child, 0o644);
          }
        }
      };
      lockDown(dir);
      const readOnly = warmRun(dir, NOBODY);
      expect(readOnly.status).toBe(0);
      expect(readOnly.misses).toEqual([]);
      expect(readOnly.stripped).toBe(false);
      expect(readOnly.hits).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
