// Prefix-cache isolation: the upstream (vLLM) shares cached prefixes between requests with the same
// `cache_salt`. The gateway always sends a salt derived from the caller's organization and the
// client's own salt, so two organizations can never hit each other's cache, whatever they send,
// while one organization's requests with the same salt (or none) still share theirs.
import { createHash } from 'node:crypto';

/** 43 base64url characters (256 bits), the length vLLM recommends for a salt. */
export function scopedCacheSalt(organizationId: string, clientSalt: string | null | undefined): string {
  return createHash('sha256')
    .update(JSON.stringify([organizationId, clientSalt ?? null]))
    .digest('base64url');
}
