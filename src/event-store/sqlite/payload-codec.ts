// Compact stored form of event payloads (JSON text) in the events table: fixed fragments that every
// billing event repeats (keys, the zero blocks of the usage vector, line-item keys) are replaced by one
// control character each. JSON.stringify never writes a raw control character (it escapes them), so a
// code cannot be confused with payload text and decoding is exact. About three times smaller for the
// billing events (docs/benchmarks-archive.md, finding 45), at a few microseconds per event, where a general
// compressor (zlib, zstd with a dictionary) costs 20 µs or more per event in Node.
// The table is part of the file format: entries may be appended, never changed or reordered.

/** Code points 1-8, 11, 12, 14-31: control characters other than tab, line feed and carriage return. */
const CODE_POINTS = [1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31];

const FRAGMENTS = [
  ',"characters":0,"cached_tokens":0,"reasoning_tokens":0}',
  ',"audio":{"duration":"0"}',
  ',"image":{"count":0,"megapixels":"0","tiles":0,"tokens":0}',
  ',"video":{"duration":"0","frames":0,"tokens":0}',
  ',"voice":{"clone_count":0,"design_count":0,"reference_duration":"0"}',
  ',"tools":{"call_count":0,"tokens":0,"web_search_calls":0}}',
  '{"requestId":"',
  '","correlationId":null,"organizationId":"',
  '","organizationId":"',
  '","keyId":"',
  '","model":"',
  '","endpoint":"/v1/chat/completions"',
  '","endpoint":"',
  ',"input":{"text":{"tokens":',
  '},"output":{"text":{"tokens":',
  ',"metering":"boundary","occurredAt":"',
  '","occurredAt":"',
  ',"lineItems":[{"name":"',
  '","side":"input","modality":"text","unit":"tokens","quantity":"',
  '","side":"output","modality":"text","unit":"tokens","quantity":"',
  '","unit_price_usd":"',
  '","amount_usd_micros":"',
  '","exact_usd_micros":"',
  '"},{"name":"',
  '"}],"priceBookVersion":"',
  ',"costUsdMicros":',
  ',"admittedAt":',
  '{"schemaVersion":1}',
];

/** Leads a stored text kept as it was (it held a control character of its own); JSON.stringify never
 * starts with a tab. */
const VERBATIM = '\t';

/**
 * A matched fragment's code, found by its length and its sixth character, which tell every fragment
 * apart (checked below): looking the match up by its text hashed each new match string, about a third
 * of the encoder's time in the append worker.
 */
const KEY_CHAR = 5;
const keyOf = (fragment: string): number => fragment.length * 128 + fragment.charCodeAt(KEY_CHAR);
const codeByKey: string[] = [];
FRAGMENTS.forEach((fragment, index) => {
  if (codeByKey[keyOf(fragment)] !== undefined) throw new Error(`payload codec: two fragments share the key of ${fragment}`);
  codeByKey[keyOf(fragment)] = String.fromCharCode(CODE_POINTS[index]);
});
const fragmentOf = new Map(FRAGMENTS.map((fragment, index) => [String.fromCharCode(CODE_POINTS[index]), fragment]));
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Longest first: a fragment that starts another one never wins over it. (Measured: a flat list is as
// fast as one factored into a trie, and faster than scanning by hand or replaceAll per fragment.)
const FRAGMENT_PATTERN = new RegExp([...FRAGMENTS].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g');
const CONTROL = /[\u0000-\u001f]/;
const CODE_PATTERN = /[\u0001-\u0008\u000b\u000c\u000e-\u001f]/g;

export function encodePayload(json: string): string {
  if (CONTROL.test(json)) return VERBATIM + json;
  return json.replace(FRAGMENT_PATTERN, (fragment) => codeByKey[keyOf(fragment)]);
}

/** Exact inverse of encodePayload; text stored before the codec (plain JSON) passes through. */
export function decodePayload(stored: string): string {
  if (stored.startsWith(VERBATIM)) return stored.slice(VERBATIM.length);
  if (!CONTROL.test(stored)) return stored;
  return stored.replace(CODE_PATTERN, (code) => fragmentOf.get(code)!);
}

if (FRAGMENTS.length > CODE_POINTS.length) throw new Error('payload codec: more fragments than codes');
