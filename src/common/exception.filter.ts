// Renders every failure as the spec's error envelope (or the 422 HTTPValidationError shape).
import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import type { GatewayLog } from './gateway-log';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, RequestValidationError } from './api-error';
import { drainRefusedUpload } from './drain-refused-upload';
import { requestLogFieldsOf } from '../observability/logging/request-log-fields';

const FASTIFY_ERRORS: Record<string, ApiError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ApiError.tooLarge('request_too_large', 'The request body exceeds the 100 MiB limit.'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: new ApiError(415, 'unsupported_media_type', 'Unsupported Content-Type for this endpoint.', 'invalid_request_error'),
  FST_ERR_CTP_EMPTY_JSON_BODY: ApiError.badRequest('invalid_json', 'The request body is empty; a JSON object was expected.'),
  FST_ERR_CTP_INVALID_JSON_BODY: ApiError.badRequest('invalid_json', 'The request body is not valid JSON.'),
};

/** Maps anything thrown to an ApiError; unknown errors become a 500 that hides internals. */
export function toApiError(exception: unknown): ApiError | RequestValidationError {
  if (exception instanceof ApiError || exception instanceof RequestValidationError) return exception;
  // Nest wraps Fastify's own errors (body too large, bad JSON) in an HttpException with the original as cause.
  const cause = exception instanceof HttpException ? (exception.cause as { code?: string } | undefined) : undefined;
  if (cause?.code && FASTIFY_ERRORS[cause.code]) return FASTIFY_ERRORS[cause.code];
  const code = (exception as { code?: string })?.code;
  if (code && FASTIFY_ERRORS[code]) return FASTIFY_ERRORS[code];
  if (exception instanceof SyntaxError || code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') {
    return ApiError.badRequest('invalid_json', 'The request body is not valid JSON.');
  }
  const statusCode = (exception as { statusCode?: number })?.statusCode;
  if (exception instanceof HttpException) return fromHttpException(exception);
  if (statusCode && statusCode >= 400 && statusCode < 500) {
    return new ApiError(statusCode, 'invalid_request', (exception as Error).message, 'invalid_request_error');
  }
  return new ApiError(500, 'internal_error', 'The server failed to process the request.', 'server_error');
}

function fromHttpException(exception: HttpException): ApiError {
  const status = exception.getStatus();
  if (status === 404) return ApiError.notFound('not_found', 'No such endpoint.');
  if (status === 405) return new ApiError(405, 'method_not_allowed', 'Method not allowed.', 'invalid_request_error');
  return new ApiError(status, 'invalid_request', exception.message, status >= 500 ? 'server_error' : 'invalid_request_error');
}

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  /** `logger`: the runtime's, context `errors` (gateway.ts). */
  constructor(private readonly logger: GatewayLog) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const error = toApiError(exception);
    if (reply.sent || reply.raw.headersSent) return;
    if (error instanceof RequestValidationError) {
      void reply.code(422).send(error.toBody());
      return;
    }
    if (error.status === 500) this.logger.error(requestLogFieldsOf(request, { err: exception }), error.message);
    // Upstream failures and unavailability are the operator's to see; the text is the client's (scrubbed) message.
    else if (error.status > 500) this.logger.warn(requestLogFieldsOf(request, { status: error.status, code: error.code }), error.message);
    if (error.status === 413 && !request.raw.complete) {
      drainRefusedUpload(request.raw);
      void reply.header('connection', 'close');
    }
    void reply.code(error.status).headers(error.headers).send(error.toBody());
  }
}
