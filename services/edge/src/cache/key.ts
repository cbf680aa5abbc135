/**
 * The cache key: the endpoint, the normalised target URL (scheme and host lower-cased, default port
 * dropped, `/` for an empty path, by the URL parser in normalizeTargetUrl) and every parameter that
 * changes the answer, after defaults (so `width` omitted and `width=1440` are one entry), hashed.
 * `maxAge` is not part of it: it says which entries a client accepts, not what they contain.
 * KEY_VERSION changes when an answer's shape does, so old entries are never served.
 */
import { createHash } from 'node:crypto';

const KEY_VERSION = 1;

export function cacheKey(endpoint: string, url: string, params: Record<string, unknown>): string {
  const canonical = Object.keys(params)
    .filter((name) => name !== 'url' && name !== 'maxAge' && params[name] !== undefined)
    .sort()
    .map((name) => [name, params[name]]);
  return createHash('sha256')
    .update(JSON.stringify([KEY_VERSION, endpoint, url, canonical]))
    .digest('hex');
}
