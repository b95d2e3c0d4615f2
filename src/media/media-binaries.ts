// Which ffmpeg/ffprobe run. GATEWAY_FFMPEG_PATH and GATEWAY_FFPROBE_PATH point at the operator's
// binaries (e.g. Debian's security-maintained /usr/bin/ffmpeg, docs/media.md "Binaries"); unset,
// the static builds shipped by @ffmpeg-installer and @ffprobe-installer are used. The ffprobe package
// sets its exec bit in a postinstall script; when an install skipped it, we set it.
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

/** The operator's binary when the variable names one (it must be executable: a typo stops the first media call loudly). */
export function binaryFrom(env: NodeJS.ProcessEnv, variable: string, bundled: () => string): string {
  const configured = env[variable];
  if (!configured) return ensureExecutable(bundled());
  try {
    accessSync(configured, constants.X_OK);
  } catch {
    throw new Error(`${variable}=${configured} is not an executable file`);
  }
  return configured;
}

function binaries(): { ffmpeg: string; ffprobe: string } {
  resolved ??= {
    ffmpeg: binaryFrom(process.env, 'GATEWAY_FFMPEG_PATH', () => (require('@ffmpeg-installer/ffmpeg') as { path: string }).path),
    ffprobe: binaryFrom(process.env, 'GATEWAY_FFPROBE_PATH', () => (require('@ffprobe-installer/ffprobe') as { path: string }).path),
  };
  return resolved;
}

export const ffmpegPath = (): string => binaries().ffmpeg;
export const ffprobePath = (): string => binaries().ffprobe;
