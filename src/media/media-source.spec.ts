import { needsSeekableInput } from './media-source';

const bytes = (head: string): Buffer => Buffer.concat([Buffer.from(head, 'latin1'), Buffer.alloc(16)]);

describe('needsSeekableInput', () => {
  it.each(['\0\0\0\x20ftypisom', '\0\0\0\x08moov', '\0\0\0\x08mdat', '\0\0\0\x08wide', 'RIFF\0\0\0\0WEBP', 'ID3\x04', '\xff\xfb\x90\x00'])('sends %j through a temp file', (head) => {
    expect(needsSeekableInput(bytes(head))).toBe(true);
  });

  it.each(['RIFF\0\0\0\0WAVE', 'OggS', 'fLaC', '\xff\xf1\x50\x80', '\x1a\x45\xdf\xa3', '\x89PNG'])('streams %j on stdin', (head) => {
    expect(needsSeekableInput(bytes(head))).toBe(false);
  });

  it('streams tiny inputs', () => {
    expect(needsSeekableInput(Buffer.from('ftyp'))).toBe(false);
  });
});
