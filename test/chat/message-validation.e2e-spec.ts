// Issue 27: chat messages are checked per role before anything reaches a model, and a 422 carries an
// `error` object the official OpenAI SDK shows as its message. Nothing refused is forwarded or billed.
import OpenAI from 'openai';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { forwardedChatBodies, postChat } from './chat-test-helpers';

const ROLES = 'system, developer, user, assistant, tool, function';

describe('chat message validation (issue 27)', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.simulator.control.reset());

  const billingEvents = async () => (await gw.events('UsageMeasured')).length + (await gw.events('CostPriced')).length;

  it('shows the failing field in the OpenAI SDK error message', async () => {
    const before = await billingEvents();
    const messages = [{ role: 'wizard', content: 'Cast a spell.' }] as unknown as OpenAI.ChatCompletionMessageParam[];
    const error = await gw.openai().chat.completions.create({ model: 'aria', messages }).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.UnprocessableEntityError);
    const apiError = error as InstanceType<typeof OpenAI.UnprocessableEntityError>;
    expect(apiError.message).toBe(`422 messages[0].role: must be one of ${ROLES}`);
    expect(apiError).toMatchObject({ status: 422, param: 'messages[0].role', code: 'invalid_value', type: 'invalid_request_error' });
    expect(forwardedChatBodies(gw)).toHaveLength(0);
    expect(await billingEvents()).toBe(before);
  });

  it.each([
    ['no content', [{ role: 'user' }], ['messages', 0, 'content'], 'messages[0].content: is required', 'missing_required_parameter'],
    ['an empty role', [{ role: '', content: 'x' }], ['messages', 0, 'role'], `messages[0].role: must be one of ${ROLES}`, 'invalid_value'],
    ['an unknown role', [{ role: 'user', content: 'x' }, { role: 'wizard', content: 'x' }], ['messages', 1, 'role'], `messages[1].role: must be one of ${ROLES}`, 'invalid_value'],
    ['a part without type', [{ role: 'user', content: [{ type: 'text', text: 'a' }, { text: 'b' }] }], ['messages', 0, 'content', 1, 'type'],
      'messages[0].content[1].type: must be one of text, image_url, input_audio, audio_url, video_url, file', 'missing_required_parameter'],
    ['an image in a system message', [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }] }, { role: 'user', content: 'x' }],
      ['messages', 0, 'content', 0, 'type'], 'messages[0].content[0].type: must be one of text', 'invalid_value'],
    ['a tool message without tool_call_id', [{ role: 'user', content: 'x' }, { role: 'tool', content: '42' }], ['messages', 1, 'tool_call_id'],
      'messages[1].tool_call_id: must be a string naming the tool call answered', 'missing_required_parameter'],
    ['an assistant message with neither content nor tool_calls', [{ role: 'user', content: 'x' }, { role: 'assistant' }], ['messages', 1, 'content'],
      'messages[1].content: is required unless tool_calls, function_call, refusal or audio is given', 'missing_required_parameter'],
  ])('refuses %s with 422 at the field, unforwarded and unbilled', async (_case, messages, at, message, code) => {
    const before = await billingEvents();
    const res = await postChat(gw, { model: 'aria', messages });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', ...at]);
    expect(res.body.error).toEqual({ message, type: 'invalid_request_error', param: message.split(': ')[0], code });
    expect(forwardedChatBodies(gw)).toHaveLength(0);
    expect(await billingEvents()).toBe(before);
  });

  // The spec: "`content` is a string, null, or an array of content parts". The upstream decides what null means.
  it('accepts content: null on every role and forwards it as sent', async () => {
    const messages = [
      { role: 'system', content: null },
      { role: 'developer', content: null },
      { role: 'user', content: 'x' },
      { role: 'assistant', content: null },
      { role: 'user', content: null },
      { role: 'assistant', content: null, tool_calls: [] },
      { role: 'tool', tool_call_id: 'call_1', content: null },
      { role: 'function', name: 'f', content: null },
    ];
    const res = await postChat(gw, { model: 'aria', messages, max_completion_tokens: 8 });
    expect(res.status).toBe(200);
    expect(forwardedChatBodies(gw)[0].messages).toEqual(messages);
  });

  it('serves a conversation of every role, tool calls answered, and forwards it as sent', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'developer', content: 'Answer briefly.' },
      { role: 'system', content: [{ type: 'text', text: 'You can look things up.' }] },
      { role: 'user', content: 'What is the weather?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'Rain, 8 °C.' },
    ];
    const completion = await gw.openai().chat.completions.create({ model: 'aria', messages, max_completion_tokens: 8 });
    expect(completion.choices[0].message.role).toBe('assistant');
    expect(forwardedChatBodies(gw)[0].messages).toEqual(messages);
  });
});
