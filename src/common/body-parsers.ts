// Which request bodies the gateway reads, and how. JSON endpoints take `application/json` only:
// any other Content-Type is a 415 `unsupported_media_type` (docs/errors.md), never a 422 from a
// body the JSON validation could not make sense of. Multipart bodies are read by the two endpoints
// that take uploads (@fastify/multipart registers their parser).
import type { FastifyInstance, FastifyRequest, preValidationHookHandler, RouteOptions } from 'fastify';
import { ApiError } from './api-error';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';
import { parseJsonBodies } from './json-body-parser';

export const JSON_TOO_DEEP = ApiError.badRequest(
  'json_too_deep',
  `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays.`,
);

const NOT_JSON = new ApiError(415, 'unsupported_media_type', 'Send this request as application/json.', 'invalid_request_error');

/** Routes that read a multipart body themselves (and answer their own 415 for anything else). */
const MULTIPART_ROUTES = new Set(['/v1/audio/transcriptions', '/v1/images/:path']);

/**
 * Replaces Fastify's built-in parsers: JSON is read with one copy fewer (json-body-parser.ts) and gains the depth check, and `text/plain` (which Fastify
 * parses by default) goes, so a text body is a 415 like any type without a parser. Nest's own
 * parsers (JSON and urlencoded forms) must stay off: `NestFactory.create(..., { bodyParser: false })`.
 */
export function registerBodyParsers(fastify: FastifyInstance, bodyLimit: number): void {
  fastify.removeContentTypeParser(['application/json', 'text/plain']);
  parseJsonBodies(fastify, bodyLimit, (value) => (nestsDeeperThan(value, MAX_JSON_DEPTH) ? JSON_TOO_DEEP : null));
  fastify.addHook('onRoute', refuseMultipartOnJsonRoutes);
}

/** The multipart parser is global; a JSON route refuses what it parsed (a flag) before validation. */
function refuseMultipartOnJsonRoutes(route: RouteOptions): void {
  if (route.method !== 'POST' || MULTIPART_ROUTES.has(route.url)) return;
  const existing = route.preValidation;
  const hooks = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
  route.preValidation = [refuseMultipart, ...hooks];
}

const refuseMultipart: preValidationHookHandler = (request: FastifyRequest, _reply, done) => {
  done(request.isMultipart() ? NOT_JSON : undefined);
};
