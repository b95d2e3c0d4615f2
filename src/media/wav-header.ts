// A pure RIFF/WAVE reader: enough to measure PCM WAV exactly and to tell a truncated upload from a
// streamed one. Streamed WAV (unknown length) carries 0xFFFFFFFF (or 0) as its data size.
import { secondsFromSamples } from './duration';

export interface WavInfo {
  formatTag: number;
  channels: number;
  sampleRate: number;
  blockAlign: number;
  bitsPerSample: number;
  dataOffset: number;
  /** The data chunk's declared size; null when it is a streaming placeholder. */
  declaredDataBytes: number | null;
  /** Data bytes actually present (never more than declared). */
  availableDataBytes: number;
}

export class WavHeaderError extends Error {}

const STREAMING_SIZE = 0xffffffff;
/** PCM, IEEE float, A-law, mu-law and WAVE_FORMAT_EXTENSIBLE: one block is one sample frame. */
const FRAME_ADDRESSABLE_TAGS = new Set([0x0001, 0x0003, 0x0006, 0x0007, 0xfffe]);

export function looksLikeWav(bytes: Buffer): boolean {
  return bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WAVE';
}

export function parseWavHeader(bytes: Buffer): WavInfo {
  if (!looksLikeWav(bytes)) throw new WavHeaderError('not a RIFF/WAVE file');
  let format: Pick<WavInfo, 'formatTag' | 'channels' | 'sampleRate' | 'blockAlign' | 'bitsPerSample'> | null = null;
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const id = bytes.toString('latin1', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') format = readFormatChunk(bytes, body, size);
    if (id === 'data') return dataChunkInfo(bytes, format, body, size);
    offset = body + size + (size % 2);
  }
  throw new WavHeaderError('no data chunk');
}

function readFormatChunk(bytes: Buffer, body: number, size: number) {
  if (size < 16 || body + 16 > bytes.length) throw new WavHeaderError('fmt chunk is shorter than 16 bytes');
  const format = {
    formatTag: bytes.readUInt16LE(body),
    channels: bytes.readUInt16LE(body + 2),
    sampleRate: bytes.readUInt32LE(body + 4),
    blockAlign: bytes.readUInt16LE(body + 12),
    bitsPerSample: bytes.readUInt16LE(body + 14),
  };
  if (format.channels === 0 || format.sampleRate === 0 || format.blockAlign === 0) {
    throw new WavHeaderError('fmt chunk declares zero channels, sample rate or block size');
  }
  return format;
}

function dataChunkInfo(bytes: Buffer, format: ReturnType<typeof readFormatChunk> | null, body: number, size: number): WavInfo {
  if (!format) throw new WavHeaderError('data chunk comes before the fmt chunk');
  const present = bytes.length - body;
  const streamed = size === STREAMING_SIZE || (size === 0 && present > 0);
  const declaredDataBytes = streamed ? null : size;
  return { ...format, dataOffset: body, declaredDataBytes, availableDataBytes: Math.min(present, declaredDataBytes ?? present) };
}

/** True when the header promises more sample data than the bytes hold. */
export function isWavTruncated(info: WavInfo): boolean {
  return info.declaredDataBytes !== null && info.availableDataBytes < info.declaredDataBytes;
}

/** Whether the duration follows exactly from the byte count (uncompressed sample formats). */
export function isFrameAddressable(info: WavInfo): boolean {
  return FRAME_ADDRESSABLE_TAGS.has(info.formatTag);
}

/** Duration of the sample data present; only meaningful when isFrameAddressable(info). */
export function wavDurationSeconds(info: WavInfo): string {
  return secondsFromSamples(Math.floor(info.availableDataBytes / info.blockAlign), info.sampleRate);
}
