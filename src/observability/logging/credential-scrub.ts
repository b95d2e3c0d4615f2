// The last line of defence: every log line is scrubbed of credentials as it is written, whatever
// field or message they hide in (an upstream's error text that echoes the key it was sent, a body
// fragment, a header dump). Field-path redaction (log-options.ts) catches the known places first.
import { REDACTED } from '../../common/redact-query';

/** Names whose values are credentials, as JSON keys, header names or query parameters. */
const CREDENTIAL_NAMES = [
  'authorization', 'proxy-authorization', 'x-api-key', 'api-key', 'api_key', 'apikey', 'key', 'secret', 'client_secret',
  'token', 'access_token', 'refresh_token', 'id_token', 'password', 'passwd', 'cookie', 'set-cookie', 'auth', 'sig', 'signature',
].map((name) => name.replace(/[-_]/g, '[-_]')).join('|');

/** A JSON string field `"name": "value"`. */
const JSON_FIELD = new RegExp(String.raw`("(?:${CREDENTIAL_NAMES})"\s*:\s*")((?:[^"\\]|\\.)*)(")`, 'gi');
/**
 * The same inside a JSON text that was itself logged as a string (`\"name\": \"value\"`): there an
 * escape of the inner text is `\\` followed by one escape or character of the outer text.
 */
const ESCAPED_JSON_FIELD = new RegExp(String.raw`(\\"(?:${CREDENTIAL_NAMES})\\"\s*:\s*\\")((?:\\\\(?:\\.|[^\\])|\\[^"\\]|[^"\\])*)(\\")`, 'gi');
/** `name=value` in a query string or form body. */
const QUERY_PARAMETER = new RegExp(`([?&;\\s](?:${CREDENTIAL_NAMES})=)[^&\\s"'\\\\]+`, 'gi');
/** `name: value` in a header dump or a message. */
const HEADER_LINE = new RegExp(`((?:^|[\\s{,"])(?:authorization|proxy-authorization|x-api-key|api-key|cookie)\\s*:\\s*)(?!\\\\?")[^\\s,"\\\\]+(?:\\s+[^\\s,"\\\\]+)?`, 'gi');
/** Bearer/Basic credentials anywhere. */
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{4,}/gi;
/** OpenAI-style secret keys (the gateway's own are `sk-gw-…`) wherever they appear. */
const SECRET_KEY = /\bsk-[A-Za-z0-9_-]{8,}/g;

export function scrubCredentials(text: string): string {
  return text
    .replace(JSON_FIELD, `$1${REDACTED}$3`)
    .replace(ESCAPED_JSON_FIELD, `$1${REDACTED}$3`)
    .replace(QUERY_PARAMETER, `$1${REDACTED}`)
    .replace(HEADER_LINE, `$1${REDACTED}`)
    .replace(AUTH_SCHEME, `$1 ${REDACTED}`)
    .replace(SECRET_KEY, REDACTED);
}
