// class-validator failures become the spec's 422 HTTPValidationError, except constraints the spec
// lists as 400 conditions: those carry `context: { code }` on their decorator and become a 400 envelope.
import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validate, ValidationError, type ValidatorOptions } from 'class-validator';
import { ApiError, RequestValidationError, ValidationIssue } from './api-error';
import type { ValidationSpans } from '../observability/tracing/step-span';

/** Marks a class-validator constraint as one of the spec's 400 conditions. */
export const spec400 = (code: string) => ({ context: { code } });

/**
 * A property's failed rules. ValidateNested adds "must be either object or array" for any other
 * value; when the property's own rule already said what it must be, that second issue is noise.
 */
function ownConstraints(error: ValidationError): [string, string][] {
  const entries = Object.entries(error.constraints ?? {});
  return entries.length > 1 ? entries.filter(([type]) => type !== 'nestedValidation') : entries;
}

function flatten(errors: ValidationError[], loc: (string | number)[]): { issue: ValidationIssue; code?: string }[] {
  return errors.flatMap((error) => {
    const here = [...loc, /^\d+$/.test(error.property) ? Number(error.property) : error.property];
    const own = ownConstraints(error).map(([type, msg]) => ({
      issue: { loc: here, msg, type, input: error.value },
      code: (error.contexts?.[type] as { code?: string } | undefined)?.code,
    }));
    return [...own, ...flatten(error.children ?? [], here)];
  });
}

export function toValidationException(errors: ValidationError[], location = 'body'): Error {
  const issues = flatten(errors, [location]);
  const spec400Issue = issues.find((i) => i.code);
  if (spec400Issue) {
    const param = spec400Issue.issue.loc.slice(1).join('.');
    return ApiError.badRequest(spec400Issue.code!, spec400Issue.issue.msg, param || null);
  }
  return new RequestValidationError(issues.map((i) => i.issue));
}

/** Types Nest hands over as they are: route params, headers, untyped bodies and queries. */
const UNVALIDATED_TYPES = new Set<unknown>([String, Boolean, Number, Array, Object, Buffer, Date]);

const VALIDATOR_OPTIONS: ValidatorOptions = { forbidUnknownValues: false, validationError: { target: false, value: true } };

/** Validates a DTO instance; a failure becomes the spec's 422 (or 400) error located in `location`. */
export async function assertValid(entity: object, location: string, spans: ValidationSpans | null = null): Promise<void> {
  const step = spans?.(entity);
  const errors = await validate(entity, VALIDATOR_OPTIONS);
  step?.end(errors.length > 0 ? 'invalid_request' : undefined);
  if (errors.length > 0) throw toValidationException(errors, location);
}

const notAnObject = (property: string): ValidationError =>
  Object.assign(new ValidationError(), { property, constraints: { isObject: 'Validation failed (object is expected)' }, children: [] });

/** An object with properties of its own: not an array, a binary value or a primitive. */
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value) && !(value instanceof ArrayBuffer);

/**
 * Turns a body or query into its DTO class and validates it (class-transformer, then class-validator).
 * It does what Nest's ValidationPipe did with our options, without the checks that only matter for
 * inputs JSON and query parsers never produce (sparse arrays, binary values): those made the pipe
 * half again as expensive on every request (docs/benchmarks.md, finding 33), and without deleting
 * `prototype` keys, which are harmless data (a tool schema may name a parameter so). `__proto__` and
 * `constructor` keys never reach the instance: class-transformer skips them at every depth. Values
 * whose declared type is a primitive (a named route param) are handed over as they are, not converted.
 */
@Injectable()
export class ApiValidationPipe implements PipeTransform {
  /** `spans`: the validation span of each request when tracing is on. */
  constructor(private readonly spans: ValidationSpans | null = null) {}

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype, type } = metadata;
    if (!metatype || type === 'custom' || UNVALIDATED_TYPES.has(metatype)) return value;
    const plain = isRecord(value) ? value : {};
    const entity = plainToInstance(metatype as ClassConstructor<object>, plain);
    const where = type === 'param' ? 'path' : type;
    await assertValid(entity, where, this.spans);
    if (value !== plain && value !== null && value !== undefined) throw toValidationException([notAnObject(metadata.data ?? type)], where);
    return entity;
  }
}
