// A known secret (an upstream's API key) cut out of a text that may echo it: whole, in part, or
// encoded. An upstream's error body can carry the credential it was sent, and a text cut short
// (the 500-character limit of relayed upstream errors) must not leave most of it behind, so this
// runs before any truncation and removes every run of the text made of pieces of at least
// MIN_FRAGMENT characters of the secret, of its hex, or of its base64/base64url at each of the
// three byte alignments a secret can have inside a longer encoded value.
import { REDACTED } from '../../common/redact-query';

/** Shorter runs are left alone: 8 characters of a random key are already unlikely by chance. */
export const MIN_FRAGMENT = 8;

/** The secret and the encodings an echo may carry it in. */
export function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const hex = bytes.toString('hex');
  const forms = [secret, hex, hex.toUpperCase()];
  for (let pad = 0; pad < 3; pad++) {
    const encoded = Buffer.concat([Buffer.alloc(pad), bytes]).toString('base64');
    // Only the characters made of the secret's own bits, whatever bytes surround it.
    const stable = encoded.slice(Math.ceil((8 * pad) / 6), Math.floor((8 * (pad + bytes.length)) / 6));
    forms.push(stable, stable.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

/** Every fragment of MIN_FRAGMENT characters of every form of the secrets. */
function fragmentsOf(secrets: readonly string[]): Set<string> {
  const fragments = new Set<string>();
  for (const form of secrets.flatMap(secretForms)) {
    for (let start = 0; start + MIN_FRAGMENT <= form.length; start++) fragments.add(form.slice(start, start + MIN_FRAGMENT));
  }
  return fragments;
}

export function withoutSecrets(text: string, secrets: readonly (string | null | undefined)[]): string {
  const known = secrets.filter((secret): secret is string => typeof secret === 'string' && secret.length > 0);
  let result = text;
  // Too short to cut into fragments: removed only where it appears whole.
  for (const secret of known.filter((s) => s.length < MIN_FRAGMENT && s.length >= 4)) result = result.split(secret).join(REDACTED);
  const fragments = fragmentsOf(known.filter((s) => s.length >= MIN_FRAGMENT));
  return fragments.size === 0 ? result : cutRuns(result, fragments);
}

/** Replaces each run of overlapping or touching fragment matches with one REDACTED. */
function cutRuns(text: string, fragments: Set<string>): string {
  let out = '';
  let copiedUpTo = 0;
  let runEnd = -1;
  for (let start = 0; start + MIN_FRAGMENT <= text.length; start++) {
    if (!fragments.has(text.slice(start, start + MIN_FRAGMENT))) continue;
    if (start > runEnd) {
      out += (runEnd >= 0 ? REDACTED : '') + text.slice(copiedUpTo, start);
    }
    runEnd = start + MIN_FRAGMENT;
    copiedUpTo = runEnd;
  }
  return runEnd >= 0 ? out + REDACTED + text.slice(copiedUpTo) : text;
}
