// One media payload through the model's media profile: decode the inline bytes, identify them from
// the bytes (never from the declared format), accept, convert or reject per `media_profiles`, and
// measure what the upstream will receive.
import type { CatalogModel } from '../../catalog/catalog.types';
import type { MeasuredAudio, MeasuredImage, MeasuredVideo } from '../../billing/metering/measurement';
import {
  decideMedia, decodeBareBase64, fitWithin, identifyAudio, mediaRejectionError, parseInlineMediaUrl,
  probeImage, probeVideo, transcodeAudio, transcodeImage, transcodeVideo, withMediaParam,
} from '../../media';
import type { MediaPayload } from './media-parts';
import { sampledFrames, videoDurationSeconds } from './video-sampling';

export type MediaMeasure =
  | { kind: 'audio'; audio: MeasuredAudio }
  | { kind: 'image'; image: MeasuredImage }
  | { kind: 'video'; video: MeasuredVideo };

export interface PreparedMedia {
  bytes: Buffer;
  /** Container or format name of `bytes`, e.g. wav, png, mp4. */
  format: string;
  measure: MediaMeasure;
}

/** Extra checks a use case applies before (duration) and after (size) conversion. */
export interface MediaChecks {
  audioDuration?: (durationSeconds: string, param: string) => void;
  convertedSize?: (bytes: Buffer, param: string) => void;
}

export async function prepareMedia(payload: MediaPayload, model: CatalogModel, checks: MediaChecks = {}): Promise<PreparedMedia> {
  const bytes = payload.encoding === 'bare-base64'
    ? decodeBareBase64(payload.text, payload.param)
    : parseInlineMediaUrl(payload.text, payload.param).bytes;
  const prepared = await withMediaParam(payload.param, prepareBytes(payload, bytes, model, checks));
  checks.convertedSize?.(prepared.bytes, payload.param);
  return prepared;
}

function prepareBytes(payload: MediaPayload, bytes: Buffer, model: CatalogModel, checks: MediaChecks): Promise<PreparedMedia> {
  if (payload.kind === 'audio') return prepareAudio(bytes, model, payload.param, checks);
  if (payload.kind === 'image') return prepareImage(bytes, model, payload.param);
  return prepareVideo(bytes, model, payload.param);
}

async function prepareAudio(bytes: Buffer, model: CatalogModel, param: string, checks: MediaChecks): Promise<PreparedMedia> {
  const probe = await identifyAudio(bytes);
  const decision = decideMedia('audio', probe, model.media_profiles?.audio);
  if (decision.action === 'reject') throw mediaRejectionError(decision, param);
  checks.audioDuration?.(probe.durationSeconds, param);
  const measure: MediaMeasure = { kind: 'audio', audio: { durationSeconds: probe.durationSeconds, channels: probe.channels } };
  if (decision.action === 'accept') return { bytes, format: probe.container, measure };
  const converted = await transcodeAudio(bytes, decision.target);
  const channels = decision.target.channels ?? probe.channels;
  return { bytes: converted, format: decision.target.container, measure: { kind: 'audio', audio: { ...measure.audio, channels } } };
}

async function prepareImage(bytes: Buffer, model: CatalogModel, param: string): Promise<PreparedMedia> {
  const probe = await probeImage(bytes);
  const decision = decideMedia('image', probe, model.media_profiles?.image);
  if (decision.action === 'reject') throw mediaRejectionError(decision, param);
  if (decision.action === 'accept') {
    return { bytes, format: probe.format, measure: { kind: 'image', image: { width: probe.width, height: probe.height } } };
  }
  const size = fitWithin(probe, decision.target.max_width, decision.target.max_height);
  const converted = await transcodeImage(bytes, decision.target, probe);
  return { bytes: converted, format: decision.target.format, measure: { kind: 'image', image: size } };
}

async function prepareVideo(bytes: Buffer, model: CatalogModel, param: string): Promise<PreparedMedia> {
  const source = await probeVideo(bytes);
  const decision = decideMedia('video', source, model.media_profiles?.video);
  if (decision.action === 'reject') throw mediaRejectionError(decision, param);
  const converted = decision.action === 'convert' ? await transcodeVideo(bytes, decision.target, source) : bytes;
  const sent = decision.action === 'convert' ? await probeVideo(converted) : source;
  const video: MeasuredVideo = {
    durationSeconds: videoDurationSeconds(sent) ?? videoDurationSeconds(source) ?? '0',
    width: sent.width,
    height: sent.height,
    frames: sampledFrames(sent, model.architecture.visual_placeholder),
  };
  const format = decision.action === 'convert' ? decision.target.container : source.container;
  return { bytes: converted, format, measure: { kind: 'video', video } };
}
