// How bytes reach ffmpeg/ffprobe. Most containers stream fine through stdin. ISO-BMFF/QuickTime
// (mp4, m4a, mov) need seeking because the moov index usually sits after the samples, and the
// bundled ffmpeg 4.x cannot find a WebP's pixel format on a pipe: those go through a temp file.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MediaError } from './media-error';
import { demuxerOf, sniffContainer } from './signature';

export interface MediaSource {
  /** The `-i` argument: `-` (stdin) or a temp file path. */
  input: string;
  /** Bytes to feed on stdin when input is `-`. */
  stdin?: Buffer;
  /** The media itself, whichever way it reaches the tool. */
  bytes: Buffer;
  /** ffmpeg's demuxer for the sniffed container, forced with `-f` so no other demuxer (playlists, concat) ever reads the bytes. */
  demuxer: string;
}

/**
 * The input options of every ffmpeg/ffprobe run: the demuxer forced from the magic number and
 * only the protocols the input needs (stdin is `pipe`/`fd`, a temp file is `file`): no network, no
 * other files.
 */
export function inputArgs(source: MediaSource): string[] {
  // ffmpeg 6+ reads `-` through its `fd` protocol, older builds through `pipe`.
  const protocol = source.input === '-' ? 'pipe,fd' : 'file';
  return ['-f', source.demuxer, '-protocol_whitelist', protocol, '-i', source.input];
}

const ISO_BMFF_LEADING_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot']);

/** MP3 too: ffprobe 5.x (Debian 12's) reports the Xing header's duration, which the truncation check needs, only from a file. */
export function needsSeekableInput(bytes: Buffer): boolean {
  if (bytes.length < 12) return false;
  const isIsoBmff = ISO_BMFF_LEADING_BOXES.has(bytes.toString('latin1', 4, 8));
  const isWebp = bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP';
  return isIsoBmff || isWebp || sniffContainer(bytes) === 'mp3';
}

/** Runs `use` inside a fresh temp directory that is removed afterwards, whatever happens. */
export async function withTempDir<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-media-'));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Bytes whose magic number names no container the gateway reads are refused before any tool runs. */
export async function withMediaSource<T>(bytes: Buffer, use: (source: MediaSource) => Promise<T>): Promise<T> {
  const demuxer = demuxerOf(bytes);
  if (!demuxer) throw new MediaError('unrecognized_container', 'The bytes are not a recognised media container');
  if (!needsSeekableInput(bytes)) return use({ input: '-', stdin: bytes, bytes, demuxer });
  return withTempDir(async (dir) => {
    const path = join(dir, 'input');
    await writeFile(path, bytes);
    return use({ input: path, bytes, demuxer });
  });
}
