// Output modalities the client asks for must be ones the model produces; audio output needs the
// `audio` options (as with OpenAI) and, when the model lists preset voices, one of them.
import type { CatalogModel } from '../../catalog/catalog.types';
import { ApiError } from '../../common/api-error';
import type { ChatRequestBody } from '../chat.types';

export const CHAT_AUDIO_FORMATS = ['wav', 'aac', 'mp3', 'flac', 'opus', 'pcm16'] as const;
export type ChatAudioFormat = (typeof CHAT_AUDIO_FORMATS)[number];

/** The audio output the request asks for, or null when it asks for text only. */
export interface AudioOutputRequest {
  format: ChatAudioFormat;
}

export function audioOutputRequest(body: ChatRequestBody, model: CatalogModel): AudioOutputRequest | null {
  const modalities = body.modalities ?? [];
  const produced = new Set(model.architecture.output_modalities);
  const unsupported = modalities.find((modality) => !produced.has(modality));
  if (unsupported) {
    throw ApiError.badRequest('unsupported_modality', `The model '${model.id}' does not produce '${unsupported}' output.`, 'modalities');
  }
  if (!modalities.includes('audio')) return null;
  const audio = body.audio;
  if (!audio?.format || !audio.voice) {
    throw ApiError.badRequest('missing_audio_parameters', "Audio output requires 'audio' with a 'voice' and a 'format'.", 'audio');
  }
  const presets = model.voices?.presets;
  if (presets && !presets.includes(audio.voice)) {
    throw ApiError.badRequest('unknown_voice', `The voice '${audio.voice}' is not available for the model '${model.id}'.`, 'audio.voice');
  }
  return { format: audio.format as ChatAudioFormat };
}
