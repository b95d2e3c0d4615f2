// Vision models see a video as frames sampled at a fixed rate (Qwen2-VL's default is 2 fps), not
// every frame of the container. The model's visual_placeholder.video_frames_per_second overrides it.
import { BigDecimal } from '../../common/big-decimal';
import type { VisualPlaceholder } from '../../catalog/catalog.types';

export const DEFAULT_VIDEO_SAMPLING_FPS = 2;

export interface VideoTimeline {
  frameCount: number;
  durationSeconds?: string;
  frameRate?: number;
}

/** The container's duration, else frames / frame rate; null when neither is known. */
export function videoDurationSeconds(video: VideoTimeline): string | null {
  if (video.durationSeconds !== undefined) return video.durationSeconds;
  if (!video.frameRate) return null;
  return BigDecimal.ofNumber(video.frameCount).dividedBy(video.frameRate, 6, 'half-up').toFixed();
}

/** ceil(duration x fps), at least one frame and never more than the video has. */
export function sampledFrames(video: VideoTimeline, placeholder: VisualPlaceholder | null | undefined): number {
  const fps = placeholder?.video_frames_per_second ?? DEFAULT_VIDEO_SAMPLING_FPS;
  const duration = videoDurationSeconds(video);
  if (duration === null) return video.frameCount;
  const wanted = Number(BigDecimal.parseScientific(duration).times(BigDecimal.ofNumber(fps)).ceil());
  return Math.min(video.frameCount, Math.max(1, wanted));
}
