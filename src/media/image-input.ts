// One input image through a model's image profile, cheapest check first: header and pixel cap
// (no process), the profile's decision, then the decode check, then a conversion if the profile
// asks for one. Chat image parts, decisions input_image and images/edits uploads all come here.
import type { ImageProfile } from '../catalog/catalog.types';
import { ImageFormat, ImageProbe } from './media.types';
import { readImage, verifyImageDecodes } from './image-probe';
import { MediaOptions } from './media-options';
import { decideMedia, ImageTarget, mediaRejectionError } from './media-profile';
import { transcodeImage } from './transcode';

export interface ImageInput {
  /** The bytes to send on: as received, or converted. */
  bytes: Buffer;
  format: ImageFormat;
  width: number;
  height: number;
  converted: boolean;
}

export interface InspectedImage {
  /** What the header declares (pixel cap checked). */
  probe: ImageProbe;
  /** The profile's target when the image must be converted. */
  target: ImageTarget | null;
}

/** No process runs: the header, the pixel cap and the profile's decision (400 when it rejects). */
export function inspectImage(bytes: Buffer, profile: ImageProfile | null | undefined, options: MediaOptions & { param?: string | null } = {}): InspectedImage {
  const probe = readImage(bytes, options.work?.maxPixels);
  const decision = decideMedia('image', probe, profile);
  if (decision.action === 'reject') throw mediaRejectionError(decision, options.param ?? null);
  return { probe, target: decision.action === 'convert' ? decision.target : null };
}

/** Decodes (and converts) an inspected image. */
export async function finishImage(bytes: Buffer, inspected: InspectedImage, options: MediaOptions = {}): Promise<ImageInput> {
  const { probe, target } = inspected;
  await verifyImageDecodes(bytes, probe, options);
  if (!target) return { bytes, format: probe.format, width: probe.width, height: probe.height, converted: false };
  const converted = await transcodeImage(bytes, target, probe, options);
  // Our own output: its header is all there is to read.
  const result = readImage(converted, Number.POSITIVE_INFINITY);
  return { bytes: converted, format: result.format, width: result.width, height: result.height, converted: true };
}

export async function prepareImageInput(bytes: Buffer, profile: ImageProfile | null | undefined, options: MediaOptions & { param?: string | null } = {}): Promise<ImageInput> {
  return finishImage(bytes, inspectImage(bytes, profile, options), options);
}
