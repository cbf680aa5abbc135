import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { ScreenshotStore } from './port.ts';

export function createLocalStore(opts: { dir: string; baseUrl: string }): ScreenshotStore {
  const root = resolve(opts.dir);
  const base = opts.baseUrl.replace(/\/+$/, '');
  return {
    async put(key, body) {
      const path = join(root, key);
      if (!path.startsWith(root + '/')) throw new Error(`screenshot key escapes SCREENSHOT_DIR: ${key}`);
      await mkdir(dirname(path), { recursive: true });
      // Write then rename, so the edge never serves a half-written file.
      const tmp = `${path}.${process.pid}.tmp`;
      await writeFile(tmp, body);
      await rename(tmp, path);
      return `${base}/${key}`;
    },
    close: async () => undefined,
  };
}
