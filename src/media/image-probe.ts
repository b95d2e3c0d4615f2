// Images: image-size reads the format and dimensions from the header (no process needed); a full
// ffprobe decode then proves the pixel data is complete.
import imageSize from 'image-size';
import { IMAGE_FORMATS, ImageFormat, ImageProbe } from './media.types';
import { reasonSuffix, runFfprobe } from './ffprobe';
import { MediaError } from './media-error';
import { MediaOptions, PROBE_TIMEOUT_MS } from './media-options';
import { withMediaSource } from './media-source';

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

export async function probeImage(bytes: Buffer, options: MediaOptions = {}): Promise<ImageProbe> {
  const header = readImageHeader(bytes);
  if (!header) throw new MediaError('unrecognized_container', `The bytes are not an image (${IMAGE_FORMATS.join(', ')})`);
  if (!header.format) {
    throw new MediaError('unrecognized_container', `${header.type} images are not supported (${IMAGE_FORMATS.join(', ')})`);
  }
  return verifiedImage(bytes, { kind: 'image', format: header.format, width: header.width, height: header.height }, options);
}

async function verifiedImage(bytes: Buffer, probe: ImageProbe, options: MediaOptions): Promise<ImageProbe> {
  const report = await withMediaSource(bytes, (source) =>
    runFfprobe(source, { timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS, countFrames: true }),
  );
  const decodedFrames = Number(report.streams.find((s) => s.codec_type === 'video')?.nb_read_frames);
  if (report.errors || !(decodedFrames >= 1)) {
    throw new MediaError('undecodable_media', `The ${probe.format} image could not be decoded${reasonSuffix(report.errors) || ': no complete frame'}`);
  }
  return probe;
}
