// What a multipart form may hold, per endpoint: its documented text fields and file fields, one value
// each unless the docs make a field repeatable. Checked part by part as the form arrives, so a part
// that does not belong is refused before its bytes are read, and nothing outside the list can reach
// the upstream (a form with `n=10` and `n=1`, or a FILE named `model`, was forwarded as it came while
// the gateway validated and billed one image).
import { ApiError } from './api-error';
import { FORM_FIELD_LIMIT_BYTES } from './body-limits';

export interface FormRules {
  /** Text fields: name -> repeatable. */
  fields: Readonly<Record<string, boolean>>;
  /** File fields: name -> repeatable. */
  files: Readonly<Record<string, boolean>>;
}

export interface FormPart {
  kind: 'field' | 'file';
  name: string;
  /** A text field cut at the field limit by the multipart parser. */
  truncated?: boolean;
}

/** Counts the parts of one form against its rules; `admit` throws the 400 a part earns. */
export class FormAllowList {
  private readonly seen = new Map<string, number>();

  constructor(private readonly rules: FormRules) {}

  admit(part: FormPart): void {
    const own = part.kind === 'field' ? this.rules.fields : this.rules.files;
    if (!Object.hasOwn(own, part.name)) throw this.notAllowed(part);
    const count = (this.seen.get(part.name) ?? 0) + 1;
    if (count > 1 && !own[part.name]) {
      throw ApiError.badRequest('duplicate_parameter', `The form sends \`${part.name}\` more than once; send it once.`, part.name);
    }
    this.seen.set(part.name, count);
    if (part.truncated) {
      throw ApiError.badRequest('field_too_large', `The form field \`${part.name}\` exceeds ${FORM_FIELD_LIMIT_BYTES / 1024} KiB.`, part.name);
    }
  }

  private notAllowed(part: FormPart): ApiError {
    const other = part.kind === 'field' ? this.rules.files : this.rules.fields;
    if (Object.hasOwn(other, part.name)) {
      const wanted = part.kind === 'field' ? 'a file' : 'a text field';
      return ApiError.badRequest('invalid_parameter_kind', `The form field \`${part.name}\` must be ${wanted}.`, part.name);
    }
    return ApiError.badRequest('unknown_parameter', `Unrecognized form field \`${part.name}\`.`, part.name);
  }
}
