// The document's assistant message schema (derived from the DTO) and the validation pipe agree on
// when an assistant turn may go without content: schemathesis found them apart on `tool_calls: []`.
import 'reflect-metadata';
import Ajv2020 from 'ajv/dist/2020';
import type { ArgumentMetadata } from '@nestjs/common';
import { ApiValidationPipe } from '../../common/validation.pipe';
import { dtoSchemas } from '../../openapi/dto-schemas';
import { convertNullable } from '../../openapi/oas31';
import { CreateChatCompletionRequestDto } from './create-chat-completion.request.dto';

const schemas = convertNullable(dtoSchemas());
const ajv = new Ajv2020({ strict: false });
for (const [name, schema] of Object.entries(schemas)) ajv.addSchema(schema as object, `#/components/schemas/${name}`);
const documentAccepts = (message: object): boolean => ajv.validate({ $ref: '#/components/schemas/ChatAssistantMessageDto' }, message) as boolean;

const pipe = new ApiValidationPipe();
const BODY: ArgumentMetadata = { type: 'body', metatype: CreateChatCompletionRequestDto, data: undefined };
const pipeAccepts = (message: object): Promise<boolean> =>
  Promise.resolve(pipe.transform({ model: 'aria', messages: [{ role: 'user', content: 'q' }, message] }, BODY)).then(() => true, () => false);

const CALL = { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } };

describe('assistant message: document and validation agree', () => {
  it.each([
    ['text', { role: 'assistant', content: 'Hello' }, true],
    ['text parts', { role: 'assistant', content: [{ type: 'text', text: 'Hi' }] }, true],
    ['tool calls, no content', { role: 'assistant', tool_calls: [CALL] }, true],
    ['tool calls, null content', { role: 'assistant', content: null, tool_calls: [CALL] }, true],
    ['a function call', { role: 'assistant', content: null, function_call: { name: 'f', arguments: '{}' } }, true],
    ['a refusal', { role: 'assistant', refusal: 'No.' }, true],
    ['audio', { role: 'assistant', audio: { id: 'a1' } }, true],
    ['nothing', { role: 'assistant' }, false],
    // The spec allows null content on any message; the upstream decides what it makes of it.
    ['null content only', { role: 'assistant', content: null }, true],
    ['null content, empty tool_calls', { role: 'assistant', content: null, tool_calls: [] }, true],
    ['null content, null tool_calls and refusal', { role: 'assistant', content: null, tool_calls: null, refusal: null }, true],
    ['empty tool_calls, no content', { role: 'assistant', tool_calls: [] }, false],
    ['empty parts', { role: 'assistant', content: [] }, false],
  ])('%s', async (_case, message, accepted) => {
    expect({ document: documentAccepts(message), validation: await pipeAccepts(message) }).toEqual({ document: accepted, validation: accepted });
  });
});
