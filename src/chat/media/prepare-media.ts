// One media payload through the model's media profile, in two steps. `inspectMedia` does the cheap
// part: decode the inline base64, read the header (image-size for images, ffprobe without decoding
// for video), apply the pixel cap and the profile, and say what the part will be metered as. Only
// once every part passed that and the prompt estimate does `finish` decode (proving the bytes are
// whole), convert and measure what the upstream will receive.
import type { CatalogModel } from '../../catalog/catalog.types';
import type { MeasuredAudio, MeasuredImage, MeasuredVideo } from '../../billing/metering/measurement';
import {
  decideMedia, decodeBareBase64, finishImage, fitWithin, identifyAudio, inspectImage, mediaRejectionError, type MediaWork,
  parseInlineMediaUrl, probeVideo, readVideoHeader, transcodeAudio, transcodeVideo, verifyVideoDecodes, type VideoProbe,
  type VideoTarget, withMediaParam,
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

export interface InspectedMedia {
  /** What the part will be metered as, from its headers; null when only decoding tells (audio). */
  declared: MediaMeasure | null;
  finish(): Promise<PreparedMedia>;
}

/** Extra checks a use case applies before (duration) and after (size) conversion. */
export interface MediaChecks {
  audioDuration?: (durationSeconds: string, param: string) => void;
  convertedSize?: (bytes: Buffer, param: string) => void;
}

export async function inspectMedia(payload: MediaPayload, model: CatalogModel, checks: MediaChecks = {}, work?: MediaWork): Promise<InspectedMedia> {
  const bytes = payload.encoding === 'bare-base64'
    ? decodeBareBase64(payload.text, payload.param)
    : parseInlineMediaUrl(payload.text, payload.param).bytes;
  const inspected = await withMediaParam(payload.param, inspectBytes(payload, bytes, model, checks, work));
  return {
    declared: inspected.declared,
    finish: async () => {
      const prepared = await withMediaParam(payload.param, inspected.finish());
      checks.convertedSize?.(prepared.bytes, payload.param);
      return prepared;
    },
  };
}

export async function prepareMedia(payload: MediaPayload, model: CatalogModel, checks: MediaChecks = {}, work?: MediaWork): Promise<PreparedMedia> {
  return (await inspectMedia(payload, model, checks, work)).finish();
}

async function inspectBytes(payload: MediaPayload, bytes: Buffer, model: CatalogModel, checks: MediaChecks, work?: MediaWork): Promise<InspectedMedia> {
  if (payload.kind === 'audio') return { declared: null, finish: () => prepareAudio(bytes, model, payload.param, checks, work) };
  if (payload.kind === 'image') return inspectImagePart(bytes, model, payload.param, work);
  return inspectVideo(bytes, model, payload.param, work);
}

async function prepareAudio(bytes: Buffer, model: CatalogModel, param: string, checks: MediaChecks, work?: MediaWork): Promise<PreparedMedia> {
  const probe = await identifyAudio(bytes, { work });
  const decision = decideMedia('audio', probe, model.media_profiles?.audio);
  if (decision.action === 'reject') throw mediaRejectionError(decision, param);
  checks.audioDuration?.(probe.durationSeconds, param);
  const measure: MediaMeasure = { kind: 'audio', audio: { durationSeconds: probe.durationSeconds, channels: probe.channels } };
  if (decision.action === 'accept') return { bytes, format: probe.container, measure };
  const converted = await transcodeAudio(bytes, decision.target, { work });
  const channels = decision.target.channels ?? probe.channels;
  return { bytes: converted, format: decision.target.container, measure: { kind: 'audio', audio: { ...measure.audio, channels } } };
}

function inspectImagePart(bytes: Buffer, model: CatalogModel, param: string, work?: MediaWork): InspectedMedia {
  const inspected = inspectImage(bytes, model.media_profiles?.image, { work, param });
  const { probe, target } = inspected;
  const size = target ? fitWithin(probe, target.max_width, target.max_height) : probe;
  return {
    declared: { kind: 'image', image: { width: size.width, height: size.height } },
    finish: async () => {
      const image = await finishImage(bytes, inspected, { work });
      return { bytes: image.bytes, format: image.format, measure: { kind: 'image', image: { width: image.width, height: image.height } } };
    },
  };
}

async function inspectVideo(bytes: Buffer, model: CatalogModel, param: string, work?: MediaWork): Promise<InspectedMedia> {
  const header = await readVideoHeader(bytes, { work });
  const decision = decideMedia('video', header, model.media_profiles?.video);
  if (decision.action === 'reject') throw mediaRejectionError(decision, param);
  const target = decision.action === 'convert' ? decision.target : null;
  const size = target ? fitWithin(header, target.max_width, target.max_height, true) : header;
  return {
    declared: { kind: 'video', video: videoMeasure(header, size, header, model) },
    finish: () => finishVideo(bytes, header, target, model, work),
  };
}

async function finishVideo(bytes: Buffer, header: VideoProbe, target: VideoTarget | null, model: CatalogModel, work?: MediaWork): Promise<PreparedMedia> {
  const source = await verifyVideoDecodes(bytes, header, { work });
  const converted = target ? await transcodeVideo(bytes, target, source, { work }) : bytes;
  const sent = target ? await probeVideo(converted, { work }) : source;
  const format = target ? target.container : source.container;
  return { bytes: converted, format, measure: { kind: 'video', video: videoMeasure(sent, sent, source, model) } };
}

/** A declared frame count of 0 means the container did not say: the sampling rate over the duration decides. */
function videoMeasure(sent: VideoProbe, size: { width: number; height: number }, source: VideoProbe, model: CatalogModel): MeasuredVideo {
  const timeline = sent.frameCount > 0 ? sent : { ...sent, frameCount: Number.MAX_SAFE_INTEGER };
  const durationSeconds = videoDurationSeconds(sent) ?? videoDurationSeconds(source);
  return {
    durationSeconds: durationSeconds ?? '0',
    width: size.width,
    height: size.height,
    frames: sent.frameCount === 0 && durationSeconds === null ? 0 : sampledFrames(timeline, model.architecture.visual_placeholder),
  };
}
