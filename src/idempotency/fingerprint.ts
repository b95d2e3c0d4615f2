// What makes two requests "the same request" for a key: method, path and a hash of the canonical body.
// JSON is parsed and re-serialized with sorted keys, so a client re-encoding the same object (other key
// order, other spacing) still matches; a multipart form is its fields and files in order, never the
// random boundary the client drew for this attempt.
import { createHash, type Hash } from 'node:crypto';

export interface FormPart {
  name: string;
  /** A field's value, or a file's bytes. */
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

export function jsonFingerprint(method: string, path: string, body: unknown): string {
  const hash = startHash(method, path, 'json');
  hash.update(canonicalJson(body));
  return hash.digest('hex');
}

export function formFingerprint(method: string, path: string, parts: readonly FormPart[]): string {
  const hash = startHash(method, path, 'form');
  for (const part of parts) {
    // Lengths first: no choice of names and values can make two different forms hash the same bytes.
    const head = JSON.stringify([part.name, part.filename ?? null, part.contentType ?? null, Buffer.byteLength(part.value)]);
    hash.update(`${head}\n`).update(part.value).update('\n');
  }
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

function startHash(method: string, path: string, kind: string): Hash {
  return createHash('sha256').update(`${method.toUpperCase()} ${path} ${kind}\n`);
}
