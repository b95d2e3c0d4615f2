// The catalog's media_profiles as pure rules (spec: MediaProfiles). A missing profile rejects; a
// null accept region accepts nothing; an empty set or null range leaves that axis unconstrained;
// an axis the profile constrains but the probe could not measure is not satisfied. Input outside
// the region is converted when the profile names a target, otherwise rejected.
import { AudioProfile, ImageProfile, VideoProfile } from '../catalog/catalog.types';
import { AudioProbe, ImageProbe, MediaKind, VideoProbe } from './media.types';
import { MediaError } from './media-error';

export type AudioTarget = NonNullable<AudioProfile['converts_to']>;
export type ImageTarget = NonNullable<ImageProfile['converts_to']>;
export type VideoTarget = NonNullable<VideoProfile['converts_to']>;

interface KindTypes {
  audio: { probe: AudioProbe; profile: AudioProfile; target: AudioTarget };
  image: { probe: ImageProbe; profile: ImageProfile; target: ImageTarget };
  video: { probe: VideoProbe; profile: VideoProfile; target: VideoTarget };
}

export type MediaDecision<Target> =
  | { action: 'accept' }
  | { action: 'convert'; target: Target }
  | { action: 'reject'; reason: string };

export function decideMedia<K extends MediaKind>(
  kind: K,
  probe: KindTypes[K]['probe'],
  profile: KindTypes[K]['profile'] | null | undefined,
): MediaDecision<KindTypes[K]['target']> {
  if (probe.kind !== kind) throw new TypeError(`decideMedia(${kind}) was given a ${probe.kind} probe`);
  if (!profile) return { action: 'reject', reason: `This model does not accept ${kind} input` };
  const unmet = profile.accepts ? unmetAxes(probe, profile.accepts) : [`the model takes no ${kind} as sent`];
  if (unmet.length === 0) return { action: 'accept' };
  if (profile.converts_to) return { action: 'convert', target: profile.converts_to as KindTypes[K]['target'] };
  return { action: 'reject', reason: `This model does not accept this ${kind}: ${unmet.join('; ')}` };
}

/** The 400 a rejected decision answers with. */
export function mediaRejectionError(decision: { reason: string }, param: string | null = null): MediaError {
  return new MediaError('unsupported_media', decision.reason, param);
}

function unmetAxes(probe: AudioProbe | ImageProbe | VideoProbe, accepts: object): string[] {
  switch (probe.kind) {
    case 'audio':
      return unmetAudio(probe, accepts as NonNullable<AudioProfile['accepts']>);
    case 'image':
      return unmetImage(probe, accepts as NonNullable<ImageProfile['accepts']>);
    case 'video':
      return unmetVideo(probe, accepts as NonNullable<VideoProfile['accepts']>);
  }
}

function unmetAudio(probe: AudioProbe, accepts: NonNullable<AudioProfile['accepts']>): string[] {
  return [
    oneOf('container', probe.container, accepts.containers),
    inRange('sample rate', probe.sampleRate, accepts.sample_rate, 'Hz'),
    oneOf('channel count', probe.channels, accepts.channels),
  ].filter(isUnmet);
}

function unmetImage(probe: ImageProbe, accepts: NonNullable<ImageProfile['accepts']>): string[] {
  return [
    oneOf('format', probe.format, accepts.formats),
    atMost('width', probe.width, accepts.max_width, 'px'),
    atMost('height', probe.height, accepts.max_height, 'px'),
  ].filter(isUnmet);
}

function unmetVideo(probe: VideoProbe, accepts: NonNullable<VideoProfile['accepts']>): string[] {
  return [
    oneOf('container', probe.container, accepts.containers),
    atMost('width', probe.width, accepts.max_width, 'px'),
    atMost('height', probe.height, accepts.max_height, 'px'),
    inRange('frame rate', probe.frameRate, accepts.frame_rate, 'fps'),
  ].filter(isUnmet);
}

const isUnmet = (problem: string | null): problem is string => problem !== null;

function oneOf<T extends string | number>(axis: string, value: T | undefined, allowed: T[] | undefined): string | null {
  if (!allowed || allowed.length === 0) return null;
  if (value === undefined) return `${axis} is unknown`;
  return allowed.includes(value) ? null : `${axis} ${value} is not one of ${allowed.join(', ')}`;
}

function inRange(axis: string, value: number | undefined, range: [number, number] | null | undefined, unit: string): string | null {
  if (!range) return null;
  if (value === undefined) return `${axis} is unknown`;
  const [low, high] = range;
  return value >= low && value <= high ? null : `${axis} ${shown(value)} ${unit} is outside ${low}-${high} ${unit}`;
}

function atMost(axis: string, value: number | undefined, max: number | null | undefined, unit: string): string | null {
  if (max === null || max === undefined) return null;
  if (value === undefined) return `${axis} is unknown`;
  return value <= max ? null : `${axis} ${value} ${unit} exceeds ${max} ${unit}`;
}

/** 29.97002997 -> 29.97: enough precision for a message. */
const shown = (value: number): number => Number(value.toFixed(3));
