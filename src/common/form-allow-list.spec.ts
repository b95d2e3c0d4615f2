import { ApiError } from './api-error';
import { FormAllowList, type FormPart } from './form-allow-list';

const RULES = { fields: { model: false, 'timestamp_granularities[]': true }, files: { file: false, image: true } };

function refusal(parts: FormPart[]): { status: number; code: string; param: string | null } | null {
  const list = new FormAllowList(RULES);
  try {
    for (const part of parts) list.admit(part);
    return null;
  } catch (error) {
    const { status, code, param } = error as ApiError;
    return { status, code, param };
  }
}

describe('a multipart form against its allow-list', () => {
  it('admits each documented field once, and the repeatable ones as often as sent', () => {
    expect(refusal([
      { kind: 'field', name: 'model' },
      { kind: 'file', name: 'file' },
      { kind: 'field', name: 'timestamp_granularities[]' },
      { kind: 'field', name: 'timestamp_granularities[]' },
      { kind: 'file', name: 'image' },
      { kind: 'file', name: 'image' },
    ])).toBeNull();
  });

  it('refuses a field sent twice, naming it', () => {
    expect(refusal([{ kind: 'field', name: 'model' }, { kind: 'field', name: 'model' }])).toEqual({ status: 400, code: 'duplicate_parameter', param: 'model' });
    expect(refusal([{ kind: 'file', name: 'file' }, { kind: 'file', name: 'file' }])).toEqual({ status: 400, code: 'duplicate_parameter', param: 'file' });
  });

  it('refuses an undocumented field and a documented one of the wrong kind', () => {
    expect(refusal([{ kind: 'field', name: 'priority' }])).toEqual({ status: 400, code: 'unknown_parameter', param: 'priority' });
    expect(refusal([{ kind: 'file', name: 'model' }])).toEqual({ status: 400, code: 'invalid_parameter_kind', param: 'model' });
    expect(refusal([{ kind: 'field', name: 'file' }])).toEqual({ status: 400, code: 'invalid_parameter_kind', param: 'file' });
    // Names that are properties of every object are not fields.
    expect(refusal([{ kind: 'field', name: 'constructor' }])).toEqual({ status: 400, code: 'unknown_parameter', param: 'constructor' });
  });

  it('refuses a text field cut at the field limit', () => {
    expect(refusal([{ kind: 'field', name: 'model', truncated: true }])).toEqual({ status: 400, code: 'field_too_large', param: 'model' });
  });
});
