// Which content parts carry media and where their payload sits. Audio comes as bare base64
// (`input_audio.data`) or a data: URL (`audio_url.url`); images and video only as data: URLs.
import { RequestValidationError } from '../../common/api-error';
import type { ContentPart } from '../chat.types';

export type MediaPartKind = 'audio' | 'image' | 'video';

export interface MediaPayload {
  kind: MediaPartKind;
  /** `input_audio` carries bare base64; the `*_url` parts carry a URL. */
  encoding: 'bare-base64' | 'url';
  text: string;
  /** Request path of the payload, e.g. `messages.0.content.1.input_audio.data`. */
  param: string;
}

const PAYLOADS: Record<string, { kind: MediaPartKind; key: string; field: 'data' | 'url' }> = {
  input_audio: { kind: 'audio', key: 'input_audio', field: 'data' },
  audio_url: { kind: 'audio', key: 'audio_url', field: 'url' },
  image_url: { kind: 'image', key: 'image_url', field: 'url' },
  video_url: { kind: 'video', key: 'video_url', field: 'url' },
};

// `Object.hasOwn`, not `in`: a part of type "constructor" or "toString" is no media part.
export const isMediaPart = (part: ContentPart): boolean => Object.hasOwn(PAYLOADS, part.type);

/** The media a part carries; a malformed payload is a 422 pointing at the missing field. */
export function mediaPayloadOf(part: ContentPart, path: (string | number)[]): MediaPayload {
  const spec = PAYLOADS[part.type];
  const holder = part[spec.key] as Record<string, unknown> | undefined;
  const text = holder?.[spec.field];
  const loc = ['body', ...path, spec.key, spec.field];
  if (typeof text !== 'string') {
    throw new RequestValidationError([{ loc, msg: `${spec.key}.${spec.field} must be a string`, type: 'string_type', input: text }]);
  }
  return {
    kind: spec.kind,
    encoding: spec.field === 'data' ? 'bare-base64' : 'url',
    text,
    param: loc.slice(1).join('.'),
  };
}

const AUDIO_MIME: Record<string, string> = {
  wav: 'audio/wav', mp3: 'audio/mpeg', flac: 'audio/flac', ogg: 'audio/ogg', m4a: 'audio/mp4', aac: 'audio/aac', aiff: 'audio/aiff', webm: 'audio/webm',
};
const VIDEO_MIME: Record<string, string> = {
  mp4: 'video/mp4', webm: 'video/webm', mov: 'video/quicktime', avi: 'video/x-msvideo', mkv: 'video/x-matroska',
};

export function mimeTypeOf(kind: MediaPartKind, format: string): string {
  if (kind === 'image') return `image/${format}`;
  return (kind === 'audio' ? AUDIO_MIME : VIDEO_MIME)[format] ?? `${kind}/${format}`;
}

/** The part as forwarded: the same fields, the payload replaced by the bytes the upstream gets. */
export function rewrittenPart(part: ContentPart, payload: MediaPayload, bytes: Buffer, format: string): ContentPart {
  const spec = PAYLOADS[part.type];
  const holder = { ...(part[spec.key] as Record<string, unknown>) };
  const base64 = bytes.toString('base64');
  if (payload.encoding === 'bare-base64') {
    holder.data = base64;
    holder.format = format;
  } else {
    holder.url = `data:${mimeTypeOf(payload.kind, format)};base64,${base64}`;
  }
  return { ...part, [spec.key]: holder };
}
