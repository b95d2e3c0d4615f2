import { demuxerOf, sniffContainer } from './signature';

const padded = (head: Buffer | string): Buffer => Buffer.concat([Buffer.from(head as string, 'latin1'), Buffer.alloc(16)]);

describe('sniffContainer', () => {
  it.each([
    ['RIFF\0\0\0\0WAVE', 'wav'],
    ['RIFF\0\0\0\0AVI ', 'avi'],
    ['RIFF\0\0\0\0WEBP', 'webp'],
    ['FORM\0\0\0\0AIFF', 'aiff'],
    ['FORM\0\0\0\0AIFC', 'aiff'],
    ['\0\0\0\x20ftypM4A ', 'mp4/m4a/mov'],
    ['\0\0\0\x08moov', 'mp4/m4a/mov'],
    ['OggS', 'ogg'],
    ['fLaC', 'flac'],
    ['ID3\x04', 'mp3'],
    ['\x1a\x45\xdf\xa3', 'matroska'],
    ['\x89PNG\r\n\x1a\n', 'png'],
    ['\xff\xd8\xff\xe0', 'jpeg'],
    ['GIF89a', 'gif'],
    ['\xff\xfb\x90\x00', 'mp3'],
    ['\xff\xf3\x58\xc0', 'mp3'],
    ['\xff\xf1\x50\x80', 'aac'],
    ['\xff\xf9\x50\x80', 'aac'],
  ])('recognises %j as %s', (head, kind) => {
    expect(sniffContainer(padded(head))).toBe(kind);
  });

  it.each([
    ['RIFF\0\0\0\0XXXX'],
    ['FORM\0\0\0\0ILBM'],
    ['hello world, not media'],
    ['\xff\x00\x00\x00'],
  ])('does not recognise %j', (head) => {
    expect(sniffContainer(padded(head))).toBeNull();
  });

  it('needs at least 12 bytes', () => {
    expect(sniffContainer(Buffer.from('OggS'))).toBeNull();
  });
});

describe('demuxerOf', () => {
  it.each([
    ['RIFF\0\0\0\0WAVE', 'wav'],
    ['RIFF\0\0\0\0WEBP', 'webp_pipe'],
    ['\0\0\0\x20ftypisom', 'mov'],
    ['\x1a\x45\xdf\xa3', 'matroska'],
    ['\x89PNG\r\n\x1a\n', 'png_pipe'],
    ['\xff\xd8\xff\xe0', 'jpeg_pipe'],
    ['\xff\xf1\x50\x80', 'aac'],
  ])('forces the demuxer of %j: %s', (head, demuxer) => {
    expect(demuxerOf(padded(head))).toBe(demuxer);
  });

  it('names no demuxer for an HLS playlist or a concat list, so no tool ever reads them', () => {
    expect(demuxerOf(padded('#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:0\nfile:///etc/passwd'))).toBeNull();
    expect(demuxerOf(padded("ffconcat version 1.0\nfile '/etc/passwd'"))).toBeNull();
  });
});
