// The spec's ClientChatCompletion (POST /v1/chat/completions): the upstream's completion with the
// gateway's Usage and, for moderated models, the Moderation verdicts. Most objects stay open
// (additional properties pass through from the upstream).
import { JsonSchema, arrayOf, boolean, constant, integer, number, object, orNull, ref, string } from '../json-schema';
import { OPENAI_USAGE_OPT_IN } from './usage.schema';

const open = (properties: Record<string, JsonSchema>, optional: string[] | 'all' = []): JsonSchema =>
  object(properties, { optional, additional: true });

const mapOf = (values: JsonSchema): JsonSchema => ({ type: 'object', additionalProperties: values });

const tokenLogprob = (): Record<string, JsonSchema> => ({
  token: string(),
  bytes: orNull(arrayOf(integer())),
  logprob: number(),
});

/** One server-sent event as the stream carries it: a `data` line of JSON (the `contentSchema`), or the end marker. */
export function sseEvent(description: string, json: JsonSchema, endMarker?: string): JsonSchema {
  const payload: JsonSchema = { type: 'string', contentMediaType: 'application/json', contentSchema: json };
  return object(
    {
      event: string('The SSE event name; the gateway sends none, so readers see `message`.'),
      id: string(),
      data: endMarker ? { anyOf: [payload, { type: 'string', const: endMarker }], description: `JSON, or \`${endMarker}\` last.` } : payload,
    },
    { optional: ['event', 'id'], additional: true, description },
  );
}

export const CHAT_SCHEMAS: Record<string, JsonSchema> = {
  ChatCompletionStreamEvent: sseEvent(
    'One event of a chat completion stream: a ChatCompletionChunk, an ApiErrorResponse when the model fails mid-stream, then `[DONE]`.',
    { oneOf: [ref('ChatCompletionChunk'), ref('ApiErrorResponse')] },
    '[DONE]',
  ),
  ChatCompletionChunk: open(
    {
      id: string(),
      object: constant('chat.completion.chunk'),
      created: integer(),
      model: string('The public model id.'),
      choices: { ...arrayOf(ref('ChatCompletionChunkChoice')), description: 'Empty on the trailing usage and moderation chunks.' },
      system_fingerprint: orNull(string()),
      service_tier: orNull(string()),
      usage: { ...orNull(ref('Usage')), description: `null on every chunk but the last usage-only one (stream_options.include_usage). ${OPENAI_USAGE_OPT_IN}ChatUsage.` },
      moderation: orNull(ref('Moderation')),
    },
    ['system_fingerprint', 'service_tier', 'usage', 'moderation'],
  ),
  ChatCompletionChunkChoice: open(
    {
      index: integer(0),
      delta: open(
        {
          role: string(),
          content: orNull(string()),
          refusal: orNull(string()),
          tool_calls: orNull(arrayOf(open({ index: integer(0) }, 'all'))),
          audio: orNull(open({ id: string(), data: string('Base64 audio.'), transcript: string(), expires_at: integer() }, 'all')),
        },
        'all',
      ),
      finish_reason: orNull(string()),
      logprobs: orNull(open({ content: orNull(arrayOf(ref('ChatCompletionTokenLogprob'))) }, 'all')),
    },
    ['index', 'finish_reason', 'logprobs'],
  ),
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
      usage: { ...orNull(ref('Usage')), description: `The measured per-modality vector and its cost. ${OPENAI_USAGE_OPT_IN}ChatUsage.` },
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
