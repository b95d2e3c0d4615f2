// Reads SRT and WebVTT back into cues so tests check times and numbering, not snapshots.
export interface ParsedCue {
  index?: number;
  start: number;
  end: number;
  text: string;
}

function seconds(timestamp: string, separator: ',' | '.'): number {
  const match = new RegExp(`^(\\d{2}):(\\d{2}):(\\d{2})\\${separator}(\\d{3})$`).exec(timestamp);
  if (!match) throw new Error(`bad timestamp ${timestamp}`);
  const [hours, minutes, secs, millis] = match.slice(1).map(Number);
  return hours * 3600 + minutes * 60 + secs + millis / 1000;
}

function parseBlock(lines: string[], separator: ',' | '.', numbered: boolean): ParsedCue {
  const index = numbered ? Number(lines.shift()) : undefined;
  const [start, end] = (lines.shift() ?? '').split(' --> ');
  return { index, start: seconds(start, separator), end: seconds(end, separator), text: lines.join('\n') };
}

const blocks = (body: string) => body.split(/\n\n+/).filter((block) => block.trim().length > 0).map((block) => block.split('\n'));

export function parseSrt(body: string): ParsedCue[] {
  return blocks(body).map((lines) => parseBlock(lines, ',', true));
}

export function parseVtt(body: string): ParsedCue[] {
  const [header, ...cues] = blocks(body);
  if (header.join('\n') !== 'WEBVTT') throw new Error(`missing WEBVTT header: ${header.join('\n')}`);
  return cues.map((lines) => parseBlock(lines, '.', false));
}
