// Chat messages through the real validation pipe: what each role accepts, and where a refusal points.
import 'reflect-metadata';
import type { ArgumentMetadata } from '@nestjs/common';
import { RequestValidationError } from '../../common/api-error';
import { ApiValidationPipe } from '../../common/validation.pipe';
import { ChatAssistantMessageDto, ChatFunctionMessageDto, ChatToolMessageDto, ChatUserMessageDto } from './chat-message.dto';
import { ChatImageUrlPartDto, ChatTextPartDto } from './chat-content-part.dto';
import { CreateChatCompletionRequestDto } from './create-chat-completion.request.dto';

const pipe = new ApiValidationPipe();
const BODY: ArgumentMetadata = { type: 'body', metatype: CreateChatCompletionRequestDto, data: undefined };
const chat = (...messages: unknown[]) => ({ model: 'aria', messages });
const accept = (body: unknown) => pipe.transform(body, BODY) as Promise<CreateChatCompletionRequestDto>;

async function refusal(body: unknown): Promise<RequestValidationError> {
  const error = await pipe.transform(body, BODY).then(() => null, (e: unknown) => e);
  if (!(error instanceof RequestValidationError)) throw new Error(`expected a 422, got ${String(error)}`);
  return error;
}

const DATA_URL = 'data:image/png;base64,iVBORw0KGgo=';
const TOOL_CALL = { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{}' } };

describe('chat messages accepted per role', () => {
  it.each([
    ['system text', { role: 'system', content: 'Be brief.' }],
    ['developer text parts', { role: 'developer', content: [{ type: 'text', text: 'Be brief.' }] }],
    ['user text', { role: 'user', content: 'Hi', name: 'ann' }],
    ['user parts of every type', { role: 'user', content: [
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: DATA_URL, detail: 'low' } },
      { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
      { type: 'audio_url', audio_url: { url: 'data:audio/wav;base64,UklGRg==' } },
      { type: 'video_url', video_url: { url: 'data:video/mp4;base64,AAAA' } },
      { type: 'file', file: { file_data: 'JVBERi0=', filename: 'a.pdf' } },
    ] }],
    ['assistant text', { role: 'assistant', content: 'Hello' }],
    ['assistant tool_calls without content', { role: 'assistant', tool_calls: [TOOL_CALL] }],
    ['assistant tool_calls with null content', { role: 'assistant', content: null, tool_calls: [TOOL_CALL] }],
    ['assistant custom tool call', { role: 'assistant', tool_calls: [{ id: 'c', type: 'custom', custom: { name: 'x', input: 'y' } }] }],
    ['assistant function_call', { role: 'assistant', content: null, function_call: { name: 'f', arguments: '{}' } }],
    ['assistant refusal', { role: 'assistant', refusal: 'I cannot help with that.' }],
    ['assistant audio', { role: 'assistant', audio: { id: 'audio_1' } }],
    ['assistant refusal part', { role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] }],
    ['tool answer', { role: 'tool', content: '42', tool_call_id: 'call_1' }],
    ['function answer with null content', { role: 'function', name: 'f', content: null }],
  ])('%s', async (_case, message) => {
    await expect(accept(chat(message))).resolves.toBeInstanceOf(CreateChatCompletionRequestDto);
  });

  // The spec: "`content` is a string, null, or an array of content parts", on any role.
  it.each(['system', 'developer', 'user', 'assistant', 'tool', 'function'])('null content on a %s message, kept as sent', async (role) => {
    const message = { role, content: null, ...(role === 'tool' ? { tool_call_id: 'call_1' } : {}), ...(role === 'function' ? { name: 'f' } : {}) };
    const dto = await accept(chat({ role: 'user', content: 'first' }, message));
    expect(dto.messages[1]).toHaveProperty('content', null);
  });

  it('an assistant turn with null content and an empty tool_calls list', async () => {
    const dto = await accept(chat({ role: 'user', content: 'first' }, { role: 'assistant', content: null, tool_calls: [] }));
    expect(dto.messages[1]).toMatchObject({ content: null, tool_calls: [] });
  });

  it('checks each message as its role class and each part as its type class, keeping every field', async () => {
    const body = chat(
      { role: 'user', content: [{ type: 'text', text: 'x' }, { type: 'image_url', image_url: { url: DATA_URL }, extra: 1 }] },
      { role: 'assistant', tool_calls: [TOOL_CALL], reasoning_content: 'thought' },
      { role: 'tool', content: 'r', tool_call_id: 'call_1' },
      { role: 'function', name: 'f', content: 'r' },
    );
    const dto = await accept(body);
    const [user, assistant, tool, fn] = dto.messages;
    expect(user).toBeInstanceOf(ChatUserMessageDto);
    expect((user.content as object[])[0]).toBeInstanceOf(ChatTextPartDto);
    expect((user.content as object[])[1]).toBeInstanceOf(ChatImageUrlPartDto);
    expect((user.content as object[])[1]).toMatchObject({ type: 'image_url', extra: 1 });
    expect(assistant).toBeInstanceOf(ChatAssistantMessageDto);
    expect(assistant).toMatchObject({ role: 'assistant', reasoning_content: 'thought' });
    expect(tool).toBeInstanceOf(ChatToolMessageDto);
    expect(fn).toBeInstanceOf(ChatFunctionMessageDto);
    expect(body.messages[0]).toHaveProperty('role', 'user');
  });
});

describe('chat messages refused with 422, pointing at the field', () => {
  it.each([
    ['no role', { content: 'x' }, ['role'], 'role must be one of system, developer, user, assistant, tool, function'],
    ['an empty role', { role: '', content: 'x' }, ['role'], 'role must be one of system, developer, user, assistant, tool, function'],
    ['an unknown role', { role: 'wizard', content: 'x' }, ['role'], 'role must be one of system, developer, user, assistant, tool, function'],
    ['a role that is not a string', { role: 7, content: 'x' }, ['role'], 'role must be one of system, developer, user, assistant, tool, function'],
    ['a prototype key as role', { role: 'constructor', content: 'x' }, ['role'], 'role must be one of system, developer, user, assistant, tool, function'],
    ['a user message without content', { role: 'user' }, ['content'], 'content is required'],
    ['a system message without content', { role: 'system' }, ['content'], 'content is required'],
    ['content of no accepted shape', { role: 'user', content: 5 }, ['content'], 'content must be a string, null or an array of content parts'],
    ['assistant content of no accepted shape', { role: 'assistant', content: 5 }, ['content'], 'content must be a string, null or an array of content parts'],
    ['empty content parts', { role: 'user', content: [] }, ['content'], 'content must not be an empty array'],
    ['a part without type', { role: 'user', content: [{ text: 'x' }] }, ['content', 0, 'type'], 'type must be one of text, image_url, input_audio, audio_url, video_url, file'],
    ['a part of an unknown type', { role: 'user', content: [{ type: 'text', text: 'x' }, { type: 'hologram' }] }, ['content', 1, 'type'], 'type must be one of text, image_url, input_audio, audio_url, video_url, file'],
    ['an image in a system message', { role: 'system', content: [{ type: 'image_url', image_url: { url: DATA_URL } }] }, ['content', 0, 'type'], 'type must be one of text'],
    ['an image in an assistant message', { role: 'assistant', content: [{ type: 'image_url', image_url: { url: DATA_URL } }] }, ['content', 0, 'type'], 'type must be one of text, refusal'],
    ['a text part without text', { role: 'user', content: [{ type: 'text' }] }, ['content', 0, 'text'], 'text must be a string'],
    ['an image part without url', { role: 'user', content: [{ type: 'image_url', image_url: {} }] }, ['content', 0, 'image_url', 'url'], 'url must be a string'],
    ['an audio part without payload', { role: 'user', content: [{ type: 'input_audio' }] }, ['content', 0, 'input_audio'], 'input_audio must be an object'],
    ['an assistant message with nothing', { role: 'assistant' }, ['content'], 'content is required unless tool_calls, function_call, refusal or audio is given'],
    ['an assistant message with an empty tool_calls list only', { role: 'assistant', tool_calls: [] }, ['content'], 'content is required unless tool_calls, function_call, refusal or audio is given'],
    ['a tool call without id', { role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'f', arguments: '{}' } }] }, ['tool_calls', 0, 'id'], 'id must be a string'],
    ['a function tool call without function', { role: 'assistant', tool_calls: [{ id: 'c', type: 'function' }] }, ['tool_calls', 0, 'function'], 'function must be an object'],
    ['a tool message without tool_call_id', { role: 'tool', content: 'r' }, ['tool_call_id'], 'tool_call_id must be a string naming the tool call answered'],
    ['a function message without name', { role: 'function', content: 'r' }, ['name'], 'name must be a string'],
    ['a function message with parts', { role: 'function', name: 'f', content: [{ type: 'text', text: 'r' }] }, ['content'], 'content must be a string or null'],
  ])('%s', async (_case, message, at, msg) => {
    const error = await refusal(chat({ role: 'user', content: 'first' }, message));
    expect(error.detail).toEqual([expect.objectContaining({ loc: ['body', 'messages', 1, ...at], msg })]);
  });

  it.each([
    ['null', null],
    ['a string', 'hello'],
    ['an array', [{ role: 'user', content: 'x' }]],
  ])('refuses a message that is %s without throwing anything else', async (_case, message) => {
    const error = await refusal(chat(message));
    expect(error.detail[0].loc[1]).toBe('messages');
  });

  it('refuses parts nested in an array rather than checking them as parts', async () => {
    const error = await refusal(chat({ role: 'user', content: [[{ type: 'text', text: 'x' }]] }));
    expect(error.detail[0]).toMatchObject({ loc: ['body', 'messages', 0, 'content'], msg: 'each content part must be an object' });
  });

  it('names the first failing field in the error object SDKs show', async () => {
    const body = (await refusal(chat({ role: 'wizard', content: 'x' }))).toBody();
    expect(body.error).toEqual({
      message: 'messages[0].role: must be one of system, developer, user, assistant, tool, function',
      type: 'invalid_request_error',
      param: 'messages[0].role',
      code: 'invalid_value',
    });
    const missing = (await refusal(chat({ role: 'user', content: [{ text: 'x' }] }))).toBody();
    expect(missing.error).toMatchObject({ param: 'messages[0].content[0].type', code: 'missing_required_parameter' });
  });
});
