// Measures the media evidence of a decisions request against the model's media profiles: inline
// images and the input_audio clip are identified from their bytes, accepted, converted to the
// profile's target, or refused (400). Web images are left to the model and not measured here.
import type { CatalogModel } from '../../catalog/catalog.types';
import type { MeasuredAudio, MeasuredImage } from '../../billing/metering/measurement';
import {
  decideMedia, decodeBareBase64, finishImage, identifyAudio, inspectImage, MediaError, mediaRejectionError, type MediaWork, parseDataUrl,
  transcodeAudio, withMediaParam,
} from '../../media';
import type { InputImage } from '../domain/decision-input';

export interface ForwardedAudio {
  data: string;
  format: string;
}

export interface DecisionEvidence {
  images: MeasuredImage[];
  audio: MeasuredAudio[];
  /** Inline images the profile converted: the data: URL to send instead, by input position. */
  convertedImages: { message: number; part: number; url: string }[];
  forwardedAudio?: ForwardedAudio;
}

const IMAGE_MIME: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

/** Every inline image's header is checked (pixel cap, profile: no process) before any is decoded. */
export async function gatherEvidence(model: CatalogModel, images: readonly InputImage[], audio?: { data: string }, work?: MediaWork): Promise<DecisionEvidence> {
  const evidence: DecisionEvidence = { images: [], audio: [], convertedImages: [] };
  const inline = images.filter((candidate) => candidate.kind === 'data').map((image) => {
    const bytes = parseDataUrl(image.url, image.param).bytes;
    try {
      return { image, bytes, inspected: inspectImage(bytes, model.media_profiles?.image, { work, param: image.param }) };
    } catch (error) {
      throw error instanceof MediaError ? error.at(image.param) : error;
    }
  });
  for (const { image, bytes, inspected } of inline) {
    const result = await withMediaParam(image.param, finishImage(bytes, inspected, { work }));
    evidence.images.push({ width: result.width, height: result.height });
    if (result.converted) {
      const url = `data:${IMAGE_MIME[result.format]};base64,${result.bytes.toString('base64')}`;
      evidence.convertedImages.push({ message: image.message, part: image.part, url });
    }
  }
  if (audio) await withMediaParam('input_audio.data', addAudio(model, audio.data, evidence, work));
  return evidence;
}

async function addAudio(model: CatalogModel, data: string, evidence: DecisionEvidence, work?: MediaWork): Promise<void> {
  const bytes = decodeBareBase64(data);
  const probe = await identifyAudio(bytes, { work });
  const decision = decideMedia('audio', probe, model.media_profiles?.audio);
  if (decision.action === 'reject') throw mediaRejectionError(decision, 'input_audio.data');
  evidence.audio.push({ durationSeconds: probe.durationSeconds, channels: probe.channels });
  if (decision.action === 'accept') {
    evidence.forwardedAudio = { data, format: probe.container };
    return;
  }
  const converted = await transcodeAudio(bytes, decision.target, { work });
  evidence.forwardedAudio = { data: converted.toString('base64'), format: decision.target.container };
}
