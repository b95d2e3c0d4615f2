// A buffered answer is measured from the finished file: the requested format is decoded (pcm by
// its layout), and a file whose container the model chose is identified first to label it.
import type { CatalogModel } from '../../catalog/catalog.types';
import { ApiError } from '../../common/api-error';
import { identifyAudio, measureAudioDuration, MediaError } from '../../media';
import { pcmLayoutOf } from '../domain/output-layout';
import { speechFormatOfContainer, type SpeechFormat } from '../domain/speech-formats';

export interface MeasuredSpeech {
  format: SpeechFormat;
  seconds: string;
}

export async function measureSpeech(bytes: Buffer, requested: SpeechFormat | null, model: CatalogModel): Promise<MeasuredSpeech> {
  if (requested === 'pcm') return { format: 'pcm', seconds: await measureAudioDuration(bytes, 'pcm', pcmLayoutOf(model)) };
  if (requested !== null) return { format: requested, seconds: await measureAudioDuration(bytes, requested) };
  const probe = await identifyAudio(bytes).catch((error: unknown) => {
    throw error instanceof MediaError ? unusable(model, error.message) : error;
  });
  const format = speechFormatOfContainer(probe.container);
  if (!format) throw unusable(model, `it answered in ${probe.container}, which is not a speech format`);
  return { format, seconds: probe.durationSeconds };
}

/** The upstream's fault, not the client's: 502, and nothing is billed or served. */
function unusable(model: CatalogModel, reason: string): ApiError {
  return ApiError.upstream('upstream_audio_invalid', `The model '${model.id}' returned unusable audio: ${reason}`);
}
