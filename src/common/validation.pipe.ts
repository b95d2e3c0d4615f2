// class-validator failures become the spec's 422 HTTPValidationError, except constraints the spec
// lists as 400 conditions: those carry `context: { code }` on their decorator and become a 400 envelope.
import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError, RequestValidationError, ValidationIssue } from './api-error';

/** Marks a class-validator constraint as one of the spec's 400 conditions. */
export const spec400 = (code: string) => ({ context: { code } });

function flatten(errors: ValidationError[], loc: (string | number)[]): { issue: ValidationIssue; code?: string }[] {
  return errors.flatMap((error) => {
    const here = [...loc, /^\d+$/.test(error.property) ? Number(error.property) : error.property];
    const own = Object.entries(error.constraints ?? {}).map(([type, msg]) => ({
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

class ClassValidationFailed extends Error {
  constructor(readonly errors: ValidationError[]) {
    super('validation failed');
  }
}

/** Reports `loc` starting with where the value came from: body, query or path. */
@Injectable()
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: false,
      forbidUnknownValues: false,
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => new ClassValidationFailed(errors),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    try {
      return await super.transform(value, metadata);
    } catch (err) {
      if (!(err instanceof ClassValidationFailed)) throw err;
      throw toValidationException(err.errors, metadata.type === 'param' ? 'path' : metadata.type);
    }
  }
}
