// What the media library reports about a clip, image or video. Container and format names are the
// spec's enumerations; everything is read from the bytes, never from what the client declared.

export const AUDIO_CONTAINERS = ['wav', 'mp3', 'flac', 'ogg', 'm4a', 'aac', 'aiff', 'webm'] as const;
export const VIDEO_CONTAINERS = ['mp4', 'webm', 'mov', 'avi', 'mkv'] as const;
export const IMAGE_FORMATS = ['png', 'jpeg', 'gif', 'webp'] as const;

export type AudioContainer = (typeof AUDIO_CONTAINERS)[number];
export type VideoContainer = (typeof VIDEO_CONTAINERS)[number];
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export interface AudioProbe {
  kind: 'audio';
  container: AudioContainer;
  /** ffmpeg codec name of the first audio stream, e.g. pcm_s16le, mp3, opus. */
  codec: string;
  /** Seconds as an exact decimal string: decoded samples / sample rate, rounded to microseconds. */
  durationSeconds: string;
  /** Hz; undefined when the stream does not say. */
  sampleRate?: number;
  channels?: number;
}

export interface ImageProbe {
  kind: 'image';
  format: ImageFormat;
  width: number;
  height: number;
}

export interface VideoProbe {
  kind: 'video';
  container: VideoContainer;
  codec: string;
  width: number;
  height: number;
  /** Frames per second (average rate when the container gives one); undefined when unknown. */
  frameRate?: number;
  /** Seconds, decimal string as the container declares it; undefined when it declares none. */
  durationSeconds?: string;
  /** Frames actually decoded. */
  frameCount: number;
  hasAudio: boolean;
}

export type MediaProbe = AudioProbe | ImageProbe | VideoProbe;
export type MediaKind = MediaProbe['kind'];

/** Layout of raw `pcm` output audio; sample formats are the spec's AudioOutputFormat. */
export interface PcmLayout {
  sampleRate: number;
  sampleFormat: 'pcm16' | 'pcm24' | 'pcm_f32';
  channels: number;
}

/** Output audio formats the gateway relays and measures (speech `response_format`, chat audio). */
export type OutputAudioFormat = 'wav' | 'mp3' | 'flac' | 'opus' | 'ogg' | 'aac' | 'pcm';
