// ffprobe names demuxers, not the spec's containers: one demuxer serves mp4/m4a/mov and another
// matroska/webm. These pure rules split them using the streams, the ISO major brand and the EBML DocType.
import { AudioContainer, VideoContainer } from './media.types';

const ISO_FAMILY = 'mov,mp4,m4a,3gp,3g2,mj2';
const MATROSKA_FAMILY = 'matroska,webm';
const WEBM_CODECS = new Set(['vp8', 'vp9', 'av1', 'opus', 'vorbis']);
const SIMPLE_AUDIO: Record<string, AudioContainer> = { wav: 'wav', mp3: 'mp3', flac: 'flac', ogg: 'ogg', aac: 'aac', aiff: 'aiff' };

export interface ContainerEvidence {
  formatName: string;
  /** ISO-BMFF `major_brand` tag, e.g. "M4A ", "isom", "qt  ". */
  majorBrand?: string;
  /** Matroska EBML DocType: "webm" or "matroska". */
  docType?: string | null;
  codecs: string[];
}

/** The audio container of an audio-only file, or null when it is not one the spec lists. */
export function audioContainerOf(evidence: ContainerEvidence): AudioContainer | null {
  if (evidence.formatName in SIMPLE_AUDIO) return SIMPLE_AUDIO[evidence.formatName];
  if (evidence.formatName === ISO_FAMILY) return 'm4a';
  if (evidence.formatName === MATROSKA_FAMILY) return isWebm(evidence) ? 'webm' : null;
  return null;
}

export function videoContainerOf(evidence: ContainerEvidence): VideoContainer | null {
  if (evidence.formatName === 'avi') return 'avi';
  if (evidence.formatName === ISO_FAMILY) return evidence.majorBrand?.trim() === 'qt' ? 'mov' : 'mp4';
  if (evidence.formatName === MATROSKA_FAMILY) return isWebm(evidence) ? 'webm' : 'mkv';
  return null;
}

function isWebm(evidence: ContainerEvidence): boolean {
  if (evidence.docType) return evidence.docType === 'webm';
  return evidence.codecs.every((codec) => WEBM_CODECS.has(codec));
}

const EBML_MAGIC = 0x1a45dfa3;
const DOCTYPE_ID = 0x4282;

/** Reads the DocType from a Matroska EBML header; null when the bytes do not start with one. */
export function matroskaDocType(bytes: Buffer): string | null {
  if (bytes.length < 8 || bytes.readUInt32BE(0) !== EBML_MAGIC) return null;
  const header = readVint(bytes, 4, false);
  if (!header) return null;
  const end = Math.min(bytes.length, header.next + header.value);
  for (let offset = header.next; offset < end; ) {
    const id = readVint(bytes, offset, true);
    const size = id && readVint(bytes, id.next, false);
    if (!id || !size) return null;
    if (id.value === DOCTYPE_ID) return bytes.toString('latin1', size.next, Math.min(end, size.next + size.value)).replace(/\0+$/, '');
    offset = size.next + size.value;
  }
  return null;
}

/** EBML variable-length integer; element ids keep their length marker bit, sizes drop it. */
function readVint(bytes: Buffer, offset: number, keepMarker: boolean): { value: number; next: number } | null {
  if (offset >= bytes.length) return null;
  const first = bytes[offset];
  const length = Math.clz32(first) - 23;
  if (first === 0 || length > 8 || offset + length > bytes.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  for (let i = 1; i < length; i++) value = value * 256 + bytes[offset + i];
  return { value, next: offset + length };
}
