// What makes two requests "the same request" for a key: method, path and a hash of the canonical body.
// JSON is parsed and re-serialized with sorted keys, so a client re-encoding the same object (other key
// order, other spacing) still matches; a multipart form is its parts in order, never the random
// boundary the client drew for this attempt.
import { createHash, type Hash } from 'node:crypto';

export function jsonFingerprint(method: string, path: string, body: unknown): string {
  const hash = startHash(method, path, 'json');
  hash.update(canonicalJson(body));
  return hash.digest('hex');
}

/** JSON with every object's keys sorted (arrays keep their order: it is meaningful). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

/**
 * A multipart body as sent, with its boundary taken out: the same parts (their headers and bytes, in
 * order) give the same fingerprint whatever boundary the client drew for this attempt. A part's bytes
 * cannot contain the boundary (that is how multipart is delimited), so every occurrence is a delimiter.
 */
export function multipartFingerprint(method: string, path: string, body: Buffer, boundary: string): string {
  const hash = startHash(method, path, 'form');
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');
  let from = 0;
  for (let at = body.indexOf(delimiter, from); at !== -1; at = body.indexOf(delimiter, from)) {
    hash.update(body.subarray(from, at)).update('\0--boundary\0');
    from = at + delimiter.length;
  }
  hash.update(body.subarray(from));
  return hash.digest('hex');
}

/** The boundary parameter of a `multipart/form-data` content type, or null. */
export function boundaryOf(contentType: string | undefined): string | null {
  const match = /^multipart\/form-data\s*;(?:.*;)?\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType ?? '');
  return match === null ? null : (match[1] ?? match[2]);
}

function startHash(method: string, path: string, kind: string): Hash {
  return createHash('sha256').update(`${method.toUpperCase()} ${path} ${kind}\n`);
}
