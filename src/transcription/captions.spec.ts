import { captionTimestamp, renderSrt, renderVtt } from './captions';
import type { TranscriptSegment } from './transcript.types';

const segment = (start: number, end: number, text: string): TranscriptSegment => ({ start, end, text });

describe('captionTimestamp', () => {
  it('uses a comma for SRT and a dot for WebVTT', () => {
    expect(captionTimestamp(1, ',')).toBe('00:00:01,000');
    expect(captionTimestamp(1, '.')).toBe('00:00:01.000');
  });

  it('carries milliseconds into seconds, minutes and hours', () => {
    expect(captionTimestamp(3723.4567, ',')).toBe('01:02:03,457');
    expect(captionTimestamp(59.9996, '.')).toBe('00:01:00.000');
    expect(captionTimestamp(0.001, ',')).toBe('00:00:00,001');
  });

  it('rounds float noise to the nearest millisecond', () => {
    expect(captionTimestamp(0.1 + 0.2, ',')).toBe('00:00:00,300');
  });
});

describe('renderSrt', () => {
  it('numbers cues from 1 and separates them by a blank line', () => {
    const srt = renderSrt([segment(0, 1.5, ' Hello there.'), segment(1.5, 2.25, ' General Kenobi.')]);
    expect(srt).toBe('1\n00:00:00,000 --> 00:00:01,500\nHello there.\n\n2\n00:00:01,500 --> 00:00:02,250\nGeneral Kenobi.\n\n');
  });

  it('skips segments without text and keeps the numbering consecutive', () => {
    const srt = renderSrt([segment(0, 1, 'one'), segment(1, 2, '  '), segment(2, 3, 'three')]);
    expect(srt).toContain('2\n00:00:02,000 --> 00:00:03,000\nthree');
    expect(srt).not.toContain('3\n');
  });

  it('removes blank lines inside a cue so they cannot end it early', () => {
    expect(renderSrt([segment(0, 1, 'first\n\nsecond')])).toBe('1\n00:00:00,000 --> 00:00:01,000\nfirst\nsecond\n\n');
  });

  it('is empty for a transcript without segments', () => {
    expect(renderSrt([])).toBe('');
  });
});

describe('renderVtt', () => {
  it('starts with the WEBVTT header and uses dotted timestamps', () => {
    const vtt = renderVtt([segment(0.5, 1, ' Hi.')]);
    expect(vtt).toBe('WEBVTT\n\n00:00:00.500 --> 00:00:01.000\nHi.\n\n');
  });

  it('escapes markup characters in cue text', () => {
    expect(renderVtt([segment(0, 1, 'a < b & c > d')])).toContain('a &lt; b &amp; c &gt; d');
  });

  it('is only the header for a transcript without segments', () => {
    expect(renderVtt([])).toBe('WEBVTT\n\n');
  });
});
