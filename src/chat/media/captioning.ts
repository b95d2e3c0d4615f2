// Audio captioning (e.g. symphony-notes): a chat model that takes no text input describes one clip.
// The request is one user message holding one `input_audio` part and nothing else; the clip may
// last at most CAPTION_MAX_SECONDS and weigh at most 8 MiB once converted (spec "Limits").
import { BigDecimal } from '../../common/big-decimal';
import type { CatalogModel } from '../../catalog/catalog.types';
import { ApiError } from '../../common/api-error';
import { assertWithinMediaLimit } from '../../media';
import type { ChatMessage } from '../chat.types';
import type { MediaChecks } from './prepare-media';

/** The spec's "about four minutes", made exact: 240 s, inclusive. */
export const CAPTION_MAX_SECONDS = 240;

export function isCaptioningModel(model: CatalogModel): boolean {
  const inputs = model.architecture.input_modalities;
  return model.kind === 'chat' && inputs.includes('audio') && !inputs.includes('text');
}

const invalid = (message: string, param: string) => ApiError.badRequest('invalid_captioning_request', message, param);

/** Throws 400 unless the messages are exactly one user message with exactly one input_audio part. */
export function assertCaptioningShape(messages: readonly ChatMessage[], model: CatalogModel): void {
  const only = `The model '${model.id}' captions one audio clip: send one user message whose content is a single input_audio part, without text instructions.`;
  if (messages.length !== 1) throw invalid(`${only} Got ${messages.length} messages.`, 'messages');
  const [message] = messages;
  if (message.role !== 'user') throw invalid(`${only} Got a '${message.role}' message.`, 'messages.0.role');
  const parts = Array.isArray(message.content) ? message.content : [];
  const extra = parts.find((part) => part.type !== 'input_audio');
  if (extra) throw invalid(`${only} Got a '${extra.type}' part.`, 'messages.0.content');
  if (parts.length !== 1) throw invalid(`${only} Got ${parts.length} input_audio parts.`, 'messages.0.content');
}

export const CAPTIONING_CHECKS: MediaChecks = {
  audioDuration: (durationSeconds, param) => {
    if (BigDecimal.parseScientific(durationSeconds).compare(BigDecimal.of(CAPTION_MAX_SECONDS)) > 0) {
      throw ApiError.badRequest(
        'audio_too_long',
        `The clip lasts ${durationSeconds} s; captioning accepts clips of at most ${CAPTION_MAX_SECONDS} s (4 minutes).`,
        param,
      );
    }
  },
  convertedSize: (bytes, param) => assertWithinMediaLimit(bytes, param),
};
