// A buffered answer is measured from the finished file: the requested format is decoded (pcm by
// its layout), and a file whose container the model chose is identified first to label it. Audio
// joined from segments is finished here: sized as one WAV, or encoded to the requested format.
import type { CatalogModel } from '../../catalog/catalog.types';
import { ApiError } from '../../common/api-error';
import { identifyAudio, measureAudioDuration, MediaError, transcodeAudio, type AudioTarget } from '../../media';
import { withExactWavSizes, type SegmentFormat } from '../domain/joined-audio';
import { pcmLayoutOf } from '../domain/output-layout';
import { speechFormatOfContainer, type SpeechFormat } from '../domain/speech-formats';

export interface FinishedSpeech {
  bytes: Buffer;
  format: SpeechFormat | null;
}

export interface MeasuredSpeech {
  format: SpeechFormat;
  seconds: string;
}

const ENCODED: Record<Exclude<SpeechFormat, 'pcm' | 'wav'>, AudioTarget> = {
  mp3: { codec: 'mp3', container: 'mp3' },
  opus: { codec: 'opus', container: 'ogg' },
  aac: { codec: 'aac', container: 'aac' },
  flac: { codec: 'flac', container: 'flac' },
};

/** Joined segments become the requested format; without one, WAV (the segments' own container). */
export async function finishJoined(joined: Buffer, joinedAs: SegmentFormat, requested: SpeechFormat | null): Promise<FinishedSpeech> {
  if (joinedAs === 'pcm') return { bytes: joined, format: 'pcm' };
  const wav = withExactWavSizes(joined);
  if (requested === null || requested === 'wav') return { bytes: wav, format: 'wav' };
  return { bytes: await transcodeAudio(wav, ENCODED[requested as keyof typeof ENCODED]), format: requested };
}

export async function measureSpeech({ bytes, format }: FinishedSpeech, model: CatalogModel): Promise<MeasuredSpeech> {
  if (format === 'pcm') return { format, seconds: await measureAudioDuration(bytes, 'pcm', pcmLayoutOf(model)) };
  if (format !== null) return { format, seconds: await measureAudioDuration(bytes, format) };
  const probe = await identifyAudio(bytes).catch((error: unknown) => {
    throw error instanceof MediaError ? unusable(model, error.message) : error;
  });
  const identified = speechFormatOfContainer(probe.container);
  if (!identified) throw unusable(model, `it answered in ${probe.container}, which is not a speech format`);
  return { format: identified, seconds: probe.durationSeconds };
}

/** The upstream's fault, not the client's: 502, and nothing is billed or served. */
function unusable(model: CatalogModel, reason: string): ApiError {
  return ApiError.upstream('upstream_audio_invalid', `The model '${model.id}' returned unusable audio: ${reason}`);
}
