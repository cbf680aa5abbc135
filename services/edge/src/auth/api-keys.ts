/**
 * API keys: the plaintext is shown once at creation and only its SHA-256 is stored. 32 random bytes
 * make guessing hopeless, so a fast hash (not a password hash) is the right tool: lookups stay O(1).
 */
import { createHash, randomBytes } from 'node:crypto';

export interface GeneratedKey {
  id: string;
  plaintext: string;
  hash: string;
}

export function hashApiKey(plaintext: string): string {
  return createHash('sha256').update(plaintext, 'utf8').digest('hex');
}

export function generateApiKey(): GeneratedKey {
  const plaintext = `ek_${randomBytes(32).toString('base64url')}`;
  return { id: `key_${randomBytes(8).toString('hex')}`, plaintext, hash: hashApiKey(plaintext) };
}
