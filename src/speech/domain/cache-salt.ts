// A cloned voice's prompt (the reference audio) sits in the upstream's prefix cache. The salt keys
// that cache: the same reference from one organization hits it, another organization never can.
import { createHash } from 'node:crypto';

const SALT_VERSION = 'speech-ref-v1';

/** Replaces any client-sent cache_salt when the request carries reference audio. */
export function referenceCacheSalt(organizationId: string, referenceBytes: Buffer): string {
  const reference = createHash('sha256').update(referenceBytes).digest('hex');
  return createHash('sha256').update(`${SALT_VERSION}\0${organizationId}\0${reference}`).digest('hex');
}
