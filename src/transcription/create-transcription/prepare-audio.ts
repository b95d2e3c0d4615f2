// The upload as the model gets it: identified and measured from its bytes, then accepted as sent,
// transcoded to the model's `converts_to`, or refused, as its audio media profile decides.
import type { AudioProfile } from '../../catalog/catalog.types';
import { AudioContainer, AudioProbe, decideMedia, identifyAudio, mediaRejectionError, type MediaWork, transcodeAudio, withMediaParam } from '../../media';
import type { UploadedAudio } from './create-transcription.request.dto';

export interface PreparedAudio {
  /** The client's upload as measured: billing and timing checks use its duration. */
  probe: AudioProbe;
  /** What the transcription and diarization upstreams receive. */
  forwarded: UploadedAudio;
}

const MIME_TYPES: Record<AudioContainer, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  aiff: 'audio/aiff',
  webm: 'audio/webm',
};

function renamed(filename: string, container: string): string {
  const stem = filename.replace(/\.[^./]*$/, '') || 'audio';
  return `${stem}.${container}`;
}

export async function prepareAudio(upload: UploadedAudio, profile: AudioProfile | null | undefined, work?: MediaWork): Promise<PreparedAudio> {
  const probe = await withMediaParam('file', identifyAudio(upload.bytes, { work }));
  const decision = decideMedia('audio', probe, profile);
  if (decision.action === 'reject') throw mediaRejectionError(decision, 'file');
  if (decision.action === 'accept') return { probe, forwarded: upload };
  const { container } = decision.target;
  const bytes = await transcodeAudio(upload.bytes, decision.target, { work });
  const mimetype = MIME_TYPES[container as AudioContainer] ?? 'application/octet-stream';
  return { probe, forwarded: { filename: renamed(upload.filename, container), mimetype, bytes } };
}
