// Magic numbers of the containers the gateway handles. They choose the one demuxer ffmpeg/ffprobe
// may use (`-f`), so bytes of any other kind (playlists, concat lists, exotic formats) never reach
// a demuxer; ffprobe then decides what the media is, and when it gives up this tells apart "not
// media at all" from "a damaged file of a known kind".

const RIFF_KINDS: Record<string, string> = { WAVE: 'wav', 'AVI ': 'avi', WEBP: 'webp' };
const ISO_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide']);

export function sniffContainer(bytes: Buffer): string | null {
  if (bytes.length < 12) return null;
  const ascii = (start: number, end: number): string => bytes.toString('latin1', start, end);
  if (ascii(0, 4) === 'RIFF') return RIFF_KINDS[ascii(8, 12)] ?? null;
  if (ascii(0, 4) === 'FORM' && ['AIFF', 'AIFC'].includes(ascii(8, 12))) return 'aiff';
  if (ISO_BOXES.has(ascii(4, 8))) return 'mp4/m4a/mov';
  if (ascii(0, 4) === 'OggS') return 'ogg';
  if (ascii(0, 4) === 'fLaC') return 'flac';
  if (ascii(0, 3) === 'ID3') return 'mp3';
  if (bytes.readUInt32BE(0) === 0x1a45dfa3) return 'matroska';
  if (ascii(1, 4) === 'PNG' && bytes[0] === 0x89) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (ascii(0, 4) === 'GIF8') return 'gif';
  return mpegAudioFrame(bytes[0], bytes[1]);
}

/** An 11-bit frame sync; layer bits 00 mark ADTS AAC, anything else MPEG audio (mp3). */
function mpegAudioFrame(first: number, second: number): string | null {
  if (first !== 0xff || (second & 0xe0) !== 0xe0) return null;
  return (second & 0x06) === 0 ? 'aac' : 'mp3';
}

/** ffmpeg demuxer by sniffed container (image containers read through their `*_pipe` image demuxers). */
const DEMUXERS: Record<string, string> = {
  wav: 'wav', avi: 'avi', webp: 'webp_pipe', aiff: 'aiff', 'mp4/m4a/mov': 'mov', ogg: 'ogg', flac: 'flac', mp3: 'mp3',
  matroska: 'matroska', png: 'png_pipe', jpeg: 'jpeg_pipe', gif: 'gif', aac: 'aac',
};

/** The demuxer to force for these bytes, or null when their magic number is none the gateway reads. */
export function demuxerOf(bytes: Buffer): string | null {
  const container = sniffContainer(bytes);
  return container ? DEMUXERS[container] : null;
}
