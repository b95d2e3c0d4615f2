// Every error the gateway answers with. Rendered as the spec's ApiErrorResponse envelope by the
// exception filter; `code` and `type` are stable and listed in docs/errors.md.

export type ApiErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'billing_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'upstream_error'
  | 'service_unavailable'
  | 'server_error';

export interface ApiErrorBody {
  error: { message: string; type: ApiErrorType; param: string | null; code: string | null };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly type: ApiErrorType,
    readonly param: string | null = null,
    /** Extra response headers, e.g. Retry-After on 429/503. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toBody(): ApiErrorBody {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }

  static badRequest(code: string, message: string, param: string | null = null): ApiError {
    return new ApiError(400, code, message, 'invalid_request_error', param);
  }

  static notFound(code: string, message: string, param: string | null = null): ApiError {
    return new ApiError(404, code, message, 'not_found_error', param);
  }

  static tooLarge(code: string, message: string, param: string | null = null): ApiError {
    return new ApiError(413, code, message, 'invalid_request_error', param);
  }

  static unavailable(code: string, message: string, retryAfterSeconds: number): ApiError {
    return new ApiError(503, code, message, 'service_unavailable', null, { 'retry-after': String(retryAfterSeconds) });
  }

  static upstream(code: string, message: string): ApiError {
    return new ApiError(502, code, message, 'upstream_error');
  }
}

/** One entry of the spec's HTTPValidationError (status 422). */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** Where a validation issue points, as clients write it: `messages[0].content[1].type`. */
export function paramOf(loc: readonly (string | number)[]): string | null {
  let param = '';
  for (const part of loc.slice(1)) param += typeof part === 'number' ? `[${part}]` : param ? `.${part}` : part;
  return param || null;
}

/** class-validator's messages start with the property name; after `param:` it would read twice. */
function withoutLeadingName(msg: string, loc: readonly (string | number)[]): string {
  const name = loc[loc.length - 1];
  return typeof name === 'string' && msg.startsWith(`${name} `) ? msg.slice(name.length + 1) : msg;
}

/** An absent value (a missing field) rather than a present one that fails its rule. */
const isMissing = (issue: ValidationIssue): boolean => issue.type === 'missing' || ('input' in issue && issue.input === undefined);

/**
 * The 422 body: the spec's `detail[]`, plus the envelope's `error` naming the first failing field so
 * that clients reading only `error.message` (the OpenAI SDKs) show what is wrong, not "Error code: 422".
 */
export interface ValidationErrorBody {
  detail: ValidationIssue[];
  error: ApiErrorBody['error'];
}

export class RequestValidationError extends Error {
  constructor(readonly detail: ValidationIssue[]) {
    super(detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '));
  }

  toBody(): ValidationErrorBody {
    const first = this.detail[0];
    const param = first ? paramOf(first.loc) : null;
    const msg = first ? withoutLeadingName(first.msg, first.loc) : 'The request is invalid.';
    const more = this.detail.length > 1 ? ` (and ${this.detail.length - 1} more in detail)` : '';
    return {
      detail: this.detail,
      error: {
        message: `${param ?? first?.loc[0] ?? 'request'}: ${msg}${more}`,
        type: 'invalid_request_error',
        param,
        code: first && isMissing(first) ? 'missing_required_parameter' : 'invalid_value',
      },
    };
  }
}
