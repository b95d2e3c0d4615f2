// One entry point for "what is this?": the four supported image formats by header (image-size),
// everything else by ffprobe, whose image demuxers (bmp_pipe, tiff_pipe, ...) name unsupported images.
import { IMAGE_FORMATS, MediaProbe } from './media.types';
import { analyseAudio } from './audio-probe';
import { audioStreams, runFfprobe, videoStreams } from './ffprobe';
import { probeImage, readImageHeader } from './image-probe';
import { MediaError } from './media-error';
import { MediaOptions, PROBE_TIMEOUT_MS } from './media-options';
import { withMediaSource } from './media-source';
import { analyseVideo } from './video-probe';
import { demuxerOf } from './signature';
import { assertWithinPixelCap } from './pixel-cap';

export function probeMedia(bytes: Buffer, options: MediaOptions = {}): Promise<MediaProbe> {
  const image = readImageHeader(bytes);
  // Supported images, and image types no demuxer here reads (bmp, tiff), which are named in the error.
  if (image?.format || (image && !demuxerOf(bytes))) return probeImage(bytes, options);
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  return withMediaSource(bytes, async (source) => {
    const report = await runFfprobe(source, { timeoutMs, countFrames: true, work: options.work });
    const imageDemuxer = /^(\w+)_pipe$/.exec(report.format.format_name);
    if (imageDemuxer) throw new MediaError('unrecognized_container', `${imageDemuxer[1]} images are not supported (${IMAGE_FORMATS.join(', ')})`);
    if (videoStreams(report).length > 0) {
      const video = analyseVideo(bytes, report);
      assertWithinPixelCap('video', video.width, video.height, options.work?.maxPixels);
      return video;
    }
    if (audioStreams(report).length > 0) return analyseAudio(source, report, timeoutMs, options.work);
    throw new MediaError('unrecognized_container', `The media (${report.format.format_name}) has no audio or video stream`);
  });
}
