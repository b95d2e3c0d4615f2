// The static ffmpeg/ffprobe builds shipped by @ffmpeg-installer and @ffprobe-installer. The
// ffprobe package sets its exec bit in a postinstall script; when an install skipped it, we set it.
import { accessSync, chmodSync, constants } from 'node:fs';

let resolved: { ffmpeg: string; ffprobe: string } | null = null;

/** Sets the exec bit when an install left it off; returns the path. */
export function ensureExecutable(path: string): string {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    chmodSync(path, 0o755);
  }
  return path;
}

function binaries(): { ffmpeg: string; ffprobe: string } {
  resolved ??= {
    ffmpeg: ensureExecutable((require('@ffmpeg-installer/ffmpeg') as { path: string }).path),
    ffprobe: ensureExecutable((require('@ffprobe-installer/ffprobe') as { path: string }).path),
  };
  return resolved;
}

export const ffmpegPath = (): string => binaries().ffmpeg;
export const ffprobePath = (): string => binaries().ffprobe;
