// Generation parameters: the spec's SupportedParameter vocabulary names what a model may honour.
// A vocabulary parameter the model does not list is refused (as OpenAI does); anything outside the
// vocabulary is an ordinary OpenAI field and passes through untouched.
import type { CatalogModel } from '../../catalog/catalog.types';
import { ApiError } from '../../common/api-error';
import { copyWith } from '../../common/copy-with';

export const SUPPORTED_PARAMETER_VOCABULARY: readonly string[] = [
  'temperature', 'top_p', 'top_k', 'min_p', 'top_a', 'frequency_penalty', 'presence_penalty',
  'repetition_penalty', 'max_tokens', 'logit_bias', 'logprobs', 'top_logprobs', 'seed', 'response_format',
  'language', 'task_type', 'voice', 'instructions', 'speed', 'stream_format', 'ref_audio', 'ref_text',
  'speaker_embedding', 'x_vector_only_mode', 'structured_outputs', 'stop', 'tools', 'tool_choice',
  'parallel_tool_calls', 'include_reasoning', 'reasoning', 'reasoning_effort', 'web_search_options', 'verbosity',
];

const VOCABULARY = new Set(SUPPORTED_PARAMETER_VOCABULARY);

/** Throws 400 `unsupported_parameter` for the first vocabulary parameter the model does not list. */
export function rejectUnsupportedParameters(body: Record<string, unknown>, model: CatalogModel): void {
  const supported = new Set(model.supported_parameters ?? []);
  const unsupported = Object.keys(body).find(
    (key) => VOCABULARY.has(key) && !supported.has(key) && body[key] !== null && body[key] !== undefined,
  );
  if (unsupported) {
    throw ApiError.badRequest(
      'unsupported_parameter',
      `Unsupported parameter: '${unsupported}' is not supported with the model '${model.id}'.`,
      unsupported,
    );
  }
}

/** The model's default_parameters fill in what the client left out (null defaults mean "no default"). */
export function withDefaultParameters(body: Record<string, unknown>, model: CatalogModel): Record<string, unknown> {
  const filled = copyWith(body);
  for (const [name, value] of Object.entries(model.default_parameters ?? {})) {
    if (value !== null && value !== undefined && (filled[name] === undefined || filled[name] === null)) {
      filled[name] = value;
    }
  }
  return filled;
}
