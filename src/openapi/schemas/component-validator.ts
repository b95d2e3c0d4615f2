// Validates a value against one component schema of a document, with JSON Schema 2020-12 (what
// OpenAPI 3.1 schemas are). Used to check real objects from the code, and live responses, against
// the document, so the two cannot silently drift.
import Ajv2020, { ErrorObject } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export type ComponentCheck = (name: string, value: unknown) => ErrorObject[];

export function componentValidator(schemas: Record<string, unknown>): ComponentCheck {
  // strictSchema catches misspelt keywords; type and tuple strictness would flag valid 3.1 idioms.
  const ajv = new Ajv2020({ allErrors: true, strictSchema: true, strictTypes: false, strictTuples: false });
  addFormats(ajv);
  // `components` is OpenAPI's container, not a JSON Schema keyword; refs point into it.
  ajv.addKeyword('components');
  ajv.addSchema({ $id: 'document', components: { schemas } }, 'document');
  return (name, value) => {
    const validate = ajv.getSchema(`document#/components/schemas/${name}`);
    if (!validate) throw new Error(`No component schema ${name}`);
    return validate(value) ? [] : [...(validate.errors ?? [])];
  };
}
