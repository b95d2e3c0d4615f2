// The schemas declared for validation done in code agree with that code, case by case.
import Ajv2020 from 'ajv/dist/2020';
import { inputImages } from '../decisions/domain/decision-input';
import { CUSTOM_VALIDATOR_SCHEMAS, DECISION_INPUT_SCHEMA } from './custom-validator-schemas';
import { isPrintableName } from '../keys/printable-name';

const schemaAccepts = new Ajv2020({ strictSchema: true }).compile(DECISION_INPUT_SCHEMA);

function codeAccepts(input: unknown): boolean {
  try {
    inputImages(input, 100);
    return true;
  } catch {
    return false;
  }
}

const image = (extra: object = {}) => ({ type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', ...extra });
const text = (value: unknown = 'evidence') => ({ type: 'input_text', text: value });
const user = (content: unknown) => ({ role: 'user', content });

describe('DECISION_INPUT_SCHEMA', () => {
  it.each([
    ['text', 'The sky is blue.', true],
    ['a user message of text', [user('hello')], true],
    ['text and image parts', [user([text(), image({ detail: 'high' }), image({ image_url: 'https://example.com/a.png' })])], true],
    ['every detail value', [user(['low', 'high', 'auto', 'original'].map((detail) => image({ detail })))], true],
    ['no messages', [], false],
    ['a number', 42, false],
    ['an assistant message', [{ role: 'assistant', content: 'hi' }], false],
    ['a message without content', [{ role: 'user' }], false],
    ['content that is an object', [user({ text: 'x' })], false],
    ['a part of another type', [user([{ type: 'input_audio', data: 'x' }])], false],
    ['a text part whose text is not a string', [user([text(7)])], false],
    ['an image part without its URL', [user([{ type: 'input_image' }])], false],
    ['an unknown detail', [user([image({ detail: 'max' })])], false],
    ['an http URL', [user([image({ image_url: 'http://example.com/a.png' })])], false],
  ])('%s: the schema and decision-input.ts agree', (_label, input, accepted) => {
    expect({ schema: schemaAccepts(input), code: codeAccepts(input) }).toEqual({ schema: accepted, code: accepted });
  });
});

describe('isPrintableName in the OpenAPI document', () => {
  const pattern = new RegExp((CUSTOM_VALIDATOR_SCHEMAS.isPrintableName as { pattern: string }).pattern);

  it.each(['a', 'customer 1', 'ключ', 'clé-€', ''])('accepts what the validator accepts: %j', (name) => {
    expect([pattern.test(name), isPrintableName(name)]).toEqual([true, true]);
  });

  it.each(['a\u0000', 'a\u001b[2J', 'a\r\nb', 'a\u007f', 'a\u0085', 'exe.\u202etxt', 'a\u2066', 'a\u2028'])('refuses what the validator refuses: %j', (name) => {
    expect([pattern.test(name), isPrintableName(name)]).toEqual([false, false]);
  });
});
