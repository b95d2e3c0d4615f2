// What every pino logger of the gateway shares, Fastify's and the process logger alike: the same
// field-path redaction and the same last-pass credential scrub of each line as it is written.
import type { LoggerOptions } from 'pino';
import { REDACTED } from '../../common/redact-query';
import { scrubCredentials } from './credential-scrub';

/** Header names as pino redact path segments (`.name`, or `["name"]` where the name has a dash). */
const CREDENTIAL_HEADERS = ['.authorization', '["proxy-authorization"]', '["x-api-key"]', '.cookie', '["set-cookie"]'];
const CREDENTIAL_FIELDS = ['api_key', 'apiKey', 'secret', 'client_secret', 'password', 'token', 'access_token', 'refresh_token'];

export const REDACT_PATHS = [
  ...CREDENTIAL_HEADERS.flatMap((header) => [`req.headers${header}`, `headers${header}`, `*.headers${header}`]),
  ...CREDENTIAL_FIELDS.flatMap((field) => [field, `*.${field}`]),
];

export function sharedLogOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    hooks: { streamWrite: scrubCredentials },
  };
}
