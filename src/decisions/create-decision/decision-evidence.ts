// Measures the media evidence of a decisions request against the model's media profiles: inline
// images and the input_audio clip are identified from their bytes, accepted, converted to the
// profile's target, or refused (400). Web images are left to the model and not measured here.
import type { CatalogModel } from '../../catalog/catalog.types';
import type { MeasuredAudio, MeasuredImage } from '../../billing/metering/measurement';
import {
  decideMedia, decodeBareBase64, identifyAudio, mediaRejectionError, parseDataUrl, probeImage, transcodeAudio, transcodeImage,
  withMediaParam,
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

export async function gatherEvidence(model: CatalogModel, images: readonly InputImage[], audio?: { data: string }): Promise<DecisionEvidence> {
  const evidence: DecisionEvidence = { images: [], audio: [], convertedImages: [] };
  for (const image of images.filter((candidate) => candidate.kind === 'data')) {
    await withMediaParam(image.param, addImage(model, image, evidence));
  }
  if (audio) await withMediaParam('input_audio.data', addAudio(model, audio.data, evidence));
  return evidence;
}

async function addImage(model: CatalogModel, image: InputImage, evidence: DecisionEvidence): Promise<void> {
  const bytes = parseDataUrl(image.url).bytes;
  const probe = await probeImage(bytes);
  const decision = decideMedia('image', probe, model.media_profiles?.image);
  if (decision.action === 'reject') throw mediaRejectionError(decision, image.param);
  if (decision.action === 'accept') {
    evidence.images.push({ width: probe.width, height: probe.height });
    return;
  }
  const converted = await transcodeImage(bytes, decision.target, probe);
  const result = await probeImage(converted);
  evidence.images.push({ width: result.width, height: result.height });
  const url = `data:${IMAGE_MIME[result.format]};base64,${converted.toString('base64')}`;
  evidence.convertedImages.push({ message: image.message, part: image.part, url });
}

async function addAudio(model: CatalogModel, data: string, evidence: DecisionEvidence): Promise<void> {
  const bytes = decodeBareBase64(data);
  const probe = await identifyAudio(bytes);
  const decision = decideMedia('audio', probe, model.media_profiles?.audio);
  if (decision.action === 'reject') throw mediaRejectionError(decision, 'input_audio.data');
  evidence.audio.push({ durationSeconds: probe.durationSeconds, channels: probe.channels });
  if (decision.action === 'accept') {
    evidence.forwardedAudio = { data, format: probe.container };
    return;
  }
  const converted = await transcodeAudio(bytes, decision.target);
  evidence.forwardedAudio = { data: converted.toString('base64'), format: decision.target.container };
}
