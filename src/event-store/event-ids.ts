// Deterministic event ids: the same request and event type always give the same id, so a retried
// append is a no-op in the store and a request can never be billed twice.
import { createHash } from 'node:crypto';

/** Namespace of the gateway's event ids (random, fixed forever: changing it changes every id). */
export const GATEWAY_EVENT_NAMESPACE = '1904452e-1aaf-4c63-8444-112b73ede8da';

/** RFC 9562 version 5 (SHA-1, name-based) UUID. */
export function uuidV5(name: string, namespace: string): string {
  const namespaceBytes = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  if (namespaceBytes.length !== 16) throw new Error(`invalid namespace uuid: ${namespace}`);
  const hash = createHash('sha1').update(namespaceBytes).update(name, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function eventIdFor(requestId: string, type: string): string {
  return uuidV5(`${requestId}/${type}`, GATEWAY_EVENT_NAMESPACE);
}

/** The per-request stream every event of one request is appended to. */
export function requestStreamId(requestId: string): string {
  return `request-${requestId}`;
}
