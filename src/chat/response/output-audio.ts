// Audio the model produced is billed by its duration, measured from the audio itself: raw pcm16
// from the byte count at the model's output sampling rate and channels, containers by decoding.
import type { CatalogModel } from '../../catalog/catalog.types';
import type { MeasuredAudio } from '../../billing/metering/measurement';
import { measureAudioDuration, type OutputAudioFormat } from '../../media';
import type { ChatAudioFormat } from '../request/output-modalities';

/** OpenAI's pcm16 is 24 kHz; a model's output_defaults.sampling_rate overrides it. */
const DEFAULT_PCM_SAMPLE_RATE = 24_000;

const MEDIA_FORMAT: Record<ChatAudioFormat, OutputAudioFormat> = {
  wav: 'wav', aac: 'aac', mp3: 'mp3', flac: 'flac', opus: 'opus', pcm16: 'pcm',
};

export async function measureOutputAudio(bytes: Buffer, format: ChatAudioFormat, model: CatalogModel): Promise<MeasuredAudio> {
  const channels = model.output_defaults?.channels ?? 1;
  const sampleRate = model.output_defaults?.sampling_rate ?? DEFAULT_PCM_SAMPLE_RATE;
  const durationSeconds = await measureAudioDuration(bytes, MEDIA_FORMAT[format], { sampleRate, sampleFormat: 'pcm16', channels });
  return { durationSeconds, channels };
}

export function measureOutputClips(clips: readonly Buffer[], format: ChatAudioFormat | undefined, model: CatalogModel): Promise<MeasuredAudio[]> {
  if (!format) return Promise.resolve([]);
  return Promise.all(clips.filter((clip) => clip.length > 0).map((clip) => measureOutputAudio(clip, format, model)));
}
