// Images: image-size reads the format and dimensions from the header bytes (no process runs), and
// the pixel cap is checked there; only then does ffprobe decode the first frame to prove it is whole.
import imageSize from 'image-size';
import { IMAGE_FORMATS, ImageFormat, ImageProbe } from './media.types';
import { reasonSuffix, runFfprobe } from './ffprobe';
import { MediaError } from './media-error';
import { MediaOptions, PROBE_TIMEOUT_MS } from './media-options';
import { withMediaSource } from './media-source';
import { assertWithinPixelCap } from './pixel-cap';

const IMAGE_SIZE_TYPES: Record<string, ImageFormat> = { png: 'png', jpg: 'jpeg', gif: 'gif', webp: 'webp' };

interface ImageHeader {
  /** image-size's name for the type, e.g. "jpg", "bmp". */
  type: string;
  format?: ImageFormat;
  width: number;
  height: number;
}

/** Pure header sniff; null when the bytes are no image type image-size knows. */
export function readImageHeader(bytes: Buffer): ImageHeader | null {
  try {
    const size = imageSize(bytes);
    if (!size.type || !size.width || !size.height) return null;
    return { type: size.type, format: IMAGE_SIZE_TYPES[size.type], width: size.width, height: size.height };
  } catch {
    return null;
  }
}

/** Header only (pure, no process): a supported format within the pixel cap, or 400. */
export function readImage(bytes: Buffer, maxPixels?: number): ImageProbe {
  const header = readImageHeader(bytes);
  if (!header) throw new MediaError('unrecognized_container', `The bytes are not an image (${IMAGE_FORMATS.join(', ')})`);
  if (!header.format) {
    throw new MediaError('unrecognized_container', `${header.type} images are not supported (${IMAGE_FORMATS.join(', ')})`);
  }
  assertWithinPixelCap('image', header.width, header.height, maxPixels);
  return { kind: 'image', format: header.format, width: header.width, height: header.height };
}

/** Header read, then the decode check. */
export async function probeImage(bytes: Buffer, options: MediaOptions = {}): Promise<ImageProbe> {
  const probe = readImage(bytes, options.work?.maxPixels);
  await verifyImageDecodes(bytes, probe, options);
  return probe;
}

/** Decodes the first frame (the only one sent on or converted); 400 undecodable_media when it cannot. */
export async function verifyImageDecodes(bytes: Buffer, probe: ImageProbe, options: MediaOptions = {}): Promise<void> {
  const report = await withMediaSource(bytes, (source) =>
    runFfprobe(source, { timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS, countFrames: true, firstFrameOnly: true, work: options.work }),
  );
  const decodedFrames = Number(report.streams.find((s) => s.codec_type === 'video')?.nb_read_frames);
  if (report.errors || !(decodedFrames >= 1)) {
    throw new MediaError('undecodable_media', `The ${probe.format} image could not be decoded${reasonSuffix(report.errors) || ': no complete frame'}`);
  }
}
