// The spec's enumerations for the model listing ("Enumerations" table), as named components.
import { JsonSchema, oneOfValues } from '../json-schema';

const ENUMERATIONS: Record<string, readonly string[]> = {
  AudioContainer: ['wav', 'mp3', 'flac', 'ogg', 'm4a', 'aac', 'aiff', 'webm'],
  ImageFormat: ['png', 'jpeg', 'gif', 'webp'],
  VideoContainer: ['mp4', 'webm', 'mov', 'avi', 'mkv'],
  Metering: ['backend', 'boundary'],
  AudioOutputFormat: ['pcm16', 'pcm24', 'pcm_f32'],
  InputModality: ['text', 'image', 'file', 'audio', 'video'],
  OutputModality: ['text', 'image', 'embeddings', 'audio', 'video', 'voice'],
  ModelGroup: [
    'Router', 'Media', 'Other', 'GPT', 'Claude', 'Gemini', 'Grok', 'Cohere', 'Nova', 'Qwen', 'Yi', 'DeepSeek', 'Mistral',
    'Llama2', 'Llama3', 'Llama4', 'PaLM', 'RWKV', 'Qwen3', 'HiggsAudioV2',
  ],
  InstructType: [
    'none', 'airoboros', 'alpaca', 'alpaca-modif', 'chatml', 'claude', 'code-llama', 'gemma', 'llama2', 'llama3', 'mistral',
    'nemotron', 'neural', 'openchat', 'phi3', 'rwkv', 'vicuna', 'zephyr', 'deepseek-r1', 'deepseek-v3.1', 'qwq', 'qwen3',
  ],
  SupportedParameter: [
    'temperature', 'top_p', 'top_k', 'min_p', 'top_a', 'frequency_penalty', 'presence_penalty', 'repetition_penalty',
    'max_tokens', 'logit_bias', 'logprobs', 'top_logprobs', 'seed', 'response_format', 'language', 'task_type', 'voice',
    'instructions', 'speed', 'stream_format', 'ref_audio', 'ref_text', 'speaker_embedding', 'x_vector_only_mode',
    'structured_outputs', 'stop', 'tools', 'tool_choice', 'parallel_tool_calls', 'include_reasoning', 'reasoning',
    'reasoning_effort', 'web_search_options', 'verbosity',
  ],
};

export const MODEL_ENUM_SCHEMAS: Record<string, JsonSchema> = Object.fromEntries(
  Object.entries(ENUMERATIONS).map(([name, values]) => [name, oneOfValues(values)]),
);
