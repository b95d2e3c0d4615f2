// API keys are stored only as SHA-256 hashes; a key is random enough that a salt adds nothing.
import { hash, randomBytes } from 'node:crypto';

export function hashApiKey(plainKey: string): string {
  return `sha256:${hash('sha256', plainKey, 'hex')}`;
}

/** `sk-gw-` plus 32 random bytes in base64url: 43 characters of entropy. */
export function generateApiKey(): string {
  return `sk-gw-${randomBytes(32).toString('base64url')}`;
}
