// Credentials a client puts in a query string (`?api_key=…`, OAuth-style `?access_token=…`) are
// masked before a URL reaches a log line. The gateway reads keys only from headers, but clients
// send them in URLs all the same, and a debug log would otherwise keep them in clear.

const CREDENTIAL_PARAMETERS = new Set([
  'api_key', 'apikey', 'api-key', 'x-api-key', 'key', 'token', 'access_token', 'refresh_token', 'id_token',
  'client_secret', 'secret', 'password', 'auth', 'authorization', 'sig', 'signature',
]);

export const REDACTED = '[redacted]';

/** The URL with the value of every credential-named query parameter replaced; the rest untouched. */
export function redactQueryCredentials(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const pairs = url.slice(queryStart + 1).split('&');
  for (let i = 0; i < pairs.length; i++) {
    const equals = pairs[i].indexOf('=');
    const rawName = equals === -1 ? pairs[i] : pairs[i].slice(0, equals);
    if (isCredentialName(rawName)) pairs[i] = `${rawName}=${REDACTED}`;
  }
  return `${url.slice(0, queryStart + 1)}${pairs.join('&')}`;
}

/** Compared decoded and case-blind (`API%5FKey`, `token[]` count), as a lenient server would read them. */
function isCredentialName(rawName: string): boolean {
  let name = rawName.replace(/\+/g, ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    // A malformed escape: compare the name as sent.
  }
  return CREDENTIAL_PARAMETERS.has(name.trim().toLowerCase().replace(/\[\]$/, ''));
}
