/** X-API-Key -> the key's record, or a 401 that says what is wrong. */
import type { ApiKeyRecord } from '../store/port.ts';
import type { KeyDirectory } from './key-cache.ts';
import { EDGE_STATUS, EdgeHttpError } from '../errors.ts';
import { hashApiKey } from './api-keys.ts';

export const API_KEY_HEADER = 'x-api-key';

/** `keys`: the store, or this instance's KeyCache over it (the paid routes). */
export async function authenticate(keys: KeyDirectory, header: string | string[] | undefined): Promise<ApiKeyRecord> {
  if (header === undefined || header === '' || (Array.isArray(header) && header.length === 0)) {
    throw new EdgeHttpError(EDGE_STATUS.UNAUTHENTICATED, 'Missing X-API-Key header: every endpoint except /health and /ready needs an API key');
  }
  const value = Array.isArray(header) ? header.join(',') : header;
  const key = await keys.findKeyByHash(hashApiKey(value.trim()));
  // Unknown and revoked keys get the same answer: nothing to learn by probing.
  if (!key || key.revoked) throw new EdgeHttpError(EDGE_STATUS.UNAUTHENTICATED, 'Invalid API key');
  return key;
}
