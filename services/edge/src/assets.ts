/**
 * Serves the local screenshot directory read-only under /assets/: image types only, no directory
 * listing, no escaping the directory (.., encoded slashes, absolute paths, NUL bytes).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { EDGE_STATUS, EdgeHttpError } from './errors.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
};

/** The file under `root` that `requested` names, or null when it would leave root or is not an image. */
export function resolveAssetPath(root: string, requested: string): string | null {
  if (requested.includes('\0') || requested.includes('\\')) return null;
  if (requested.split('/').some((seg) => seg === '..' || seg === '.')) return null;
  if (!CONTENT_TYPES[extname(requested).toLowerCase()]) return null;
  const base = resolve(root);
  const full = resolve(base, requested);
  const rel = relative(base, full);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || !full.startsWith(base + sep)) return null;
  return full;
}

export function registerAssets(app: FastifyInstance, root: string): void {
  app.get('/assets/*', async (request, reply) => {
    const requested = (request.params as { '*': string })['*'];
    const notFound = new EdgeHttpError(EDGE_STATUS.NOT_FOUND, `No asset at /assets/${requested.slice(0, 200)}`);
    const file = resolveAssetPath(root, requested);
    if (!file) throw notFound;
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) throw notFound;
    return (
      reply
        .type(CONTENT_TYPES[extname(file).toLowerCase()] as string)
        .header('content-length', String(info.size))
        .header('x-content-type-options', 'nosniff')
        // Stored screenshots never change: their names are unique per capture.
        .header('cache-control', 'public, max-age=86400, immutable')
        .send(createReadStream(file))
    );
  });
}
