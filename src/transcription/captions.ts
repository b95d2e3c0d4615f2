// SRT and WebVTT caption files rendered from transcript segments: one cue per segment, in order.
import type { TranscriptSegment } from './transcript.types';

type Separator = ',' | '.';

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** `HH:MM:SS,mmm` (SRT) or `HH:MM:SS.mmm` (WebVTT), rounded to the millisecond. */
export function captionTimestamp(seconds: number, separator: Separator): string {
  const totalMs = Math.round(Math.max(0, seconds) * 1000);
  const totalSeconds = Math.floor(totalMs / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor(totalSeconds / 60) % 60;
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(totalSeconds % 60, 2)}${separator}${pad(totalMs % 1000, 3)}`;
}

/** A blank line ends a cue in both formats, so cue text is kept on non-empty lines. */
function cueLines(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .join('\n');
}

/** WebVTT cue text is markup: a literal `&`, `<` or `>` must be escaped. */
function escapeVtt(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

interface Cue {
  start: number;
  end: number;
  text: string;
}

/** Segments with no text would render as a cue without payload, which players reject: they are skipped. */
function cuesOf(segments: readonly TranscriptSegment[]): Cue[] {
  return segments
    .map((segment) => ({ start: segment.start, end: segment.end, text: cueLines(segment.text) }))
    .filter((cue) => cue.text.length > 0);
}

const timing = (cue: Cue, separator: Separator) =>
  `${captionTimestamp(cue.start, separator)} --> ${captionTimestamp(cue.end, separator)}`;

export function renderSrt(segments: readonly TranscriptSegment[]): string {
  return cuesOf(segments)
    .map((cue, index) => `${index + 1}\n${timing(cue, ',')}\n${cue.text}\n\n`)
    .join('');
}

export function renderVtt(segments: readonly TranscriptSegment[]): string {
  const cues = cuesOf(segments).map((cue) => `${timing(cue, '.')}\n${escapeVtt(cue.text)}\n\n`);
  return `WEBVTT\n\n${cues.join('')}`;
}
