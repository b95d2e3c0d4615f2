// Answers what Node's HTTP parser refuses before a request exists (headers not complete within the
// headers deadline, headers too large, malformed HTTP) in the spec's error envelope, as Fastify's own
// handler does in its format: the status line, a JSON body, then the connection is closed.
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { ApiError } from './api-error';

const TIMED_OUT = new ApiError(408, 'request_timeout', 'The request headers arrived too slowly; the connection is closed.', 'invalid_request_error');
const HEADERS_TOO_LARGE = new ApiError(431, 'headers_too_large', 'The request headers are too large.', 'invalid_request_error');
const MALFORMED = ApiError.badRequest('invalid_http', 'The request is not valid HTTP/1.1.');

export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? TIMED_OUT : error.code === 'HPE_HEADER_OVERFLOW' ? HEADERS_TOO_LARGE : MALFORMED;
  const body = JSON.stringify(answer.toBody());
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
