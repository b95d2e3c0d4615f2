// The spec's ClientChatCompletion (POST /v1/chat/completions): the upstream's completion with the
// gateway's Usage and, for moderated models, the Moderation verdicts. Most objects stay open
// (additional properties pass through from the upstream).
import { JsonSchema, arrayOf, boolean, constant, integer, number, object, orNull, ref, string } from '../json-schema';

const open = (properties: Record<string, JsonSchema>, optional: string[] | 'all' = []): JsonSchema =>
  object(properties, { optional, additional: true });

const mapOf = (values: JsonSchema): JsonSchema => ({ type: 'object', additionalProperties: values });

const tokenLogprob = (): Record<string, JsonSchema> => ({
  token: string(),
  bytes: orNull(arrayOf(integer())),
  logprob: number(),
});

export const CHAT_SCHEMAS: Record<string, JsonSchema> = {
  ClientChatCompletion: open(
    {
      id: string(),
      choices: arrayOf(ref('ChatCompletionChoice')),
      created: integer(),
      model: string(),
      object: constant('chat.completion'),
      moderation: orNull(ref('Moderation')),
      service_tier: orNull({ type: 'string', enum: ['auto', 'default', 'flex', 'scale', 'priority'] }),
      system_fingerprint: orNull(string()),
      usage: { ...orNull(ref('ChatUsage')), description: 'The measured per-modality vector and its cost, with OpenAI\'s token fields.' },
    },
    ['moderation', 'service_tier', 'system_fingerprint', 'usage'],
  ),
  ChatCompletionChoice: open(
    {
      index: integer(0),
      message: ref('ChatCompletionMessage'),
      finish_reason: orNull(string()),
      logprobs: orNull(open({ content: orNull(arrayOf(ref('ChatCompletionTokenLogprob'))) }, 'all')),
    },
    'all',
  ),
  ChatCompletionMessage: open(
    {
      role: string(),
      content: orNull(string()),
      refusal: orNull(string()),
      tool_calls: orNull(arrayOf({ oneOf: [ref('FunctionToolCall'), ref('CustomToolCall')] })),
      annotations: orNull(arrayOf(ref('UrlCitationAnnotation'))),
      audio: orNull(ref('ChatCompletionAudio')),
    },
    ['refusal', 'tool_calls', 'annotations', 'audio'],
  ),
  ChatCompletionAudio: object({ id: string(), data: string('Base64 audio.'), expires_at: integer(), transcript: string() }),
  FunctionToolCall: open({
    id: string(),
    type: constant('function'),
    function: open({ name: string(), arguments: string('JSON-encoded arguments.') }),
  }),
  CustomToolCall: open({ id: string(), type: constant('custom'), custom: open({ name: string(), input: string() }) }),
  UrlCitationAnnotation: open({
    type: constant('url_citation'),
    url_citation: open({ start_index: integer(0), end_index: integer(0), title: string(), url: string() }),
  }),
  ChatCompletionTokenLogprob: open({ ...tokenLogprob(), top_logprobs: arrayOf(open(tokenLogprob())) }),
  Moderation: object({
    input: { oneOf: [ref('ModerationResults'), ref('ModerationError')] },
    output: { oneOf: [ref('ModerationResults'), ref('ModerationError')] },
  }),
  ModerationResults: open({ model: string(), results: arrayOf(ref('ModerationResult')), type: constant('moderation_results') }),
  ModerationResult: open({
    categories: mapOf(boolean()),
    category_applied_input_types: mapOf(arrayOf({ type: 'string', enum: ['text', 'image'] })),
    category_scores: mapOf(number()),
    flagged: boolean(),
    model: string(),
    type: constant('moderation_result'),
  }),
  ModerationError: open({ code: string(), message: string(), type: constant('error') }),
};
