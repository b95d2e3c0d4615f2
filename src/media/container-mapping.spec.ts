import { audioContainerOf, matroskaDocType, videoContainerOf } from './container-mapping';

const ISO = 'mov,mp4,m4a,3gp,3g2,mj2';
const MKV = 'matroska,webm';

/** A minimal EBML header: EBMLVersion then DocType, sizes as one-byte vints. */
function ebmlHeader(docType: string): Buffer {
  const version = Buffer.from([0x42, 0x86, 0x81, 0x01]);
  const doc = Buffer.concat([Buffer.from([0x42, 0x82, 0x80 | docType.length]), Buffer.from(docType, 'latin1')]);
  const body = Buffer.concat([version, doc]);
  return Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x80 | body.length]), body, Buffer.alloc(8)]);
}

describe('matroskaDocType', () => {
  it('reads the DocType from the EBML header', () => {
    expect(matroskaDocType(ebmlHeader('webm'))).toBe('webm');
    expect(matroskaDocType(ebmlHeader('matroska'))).toBe('matroska');
  });

  it('handles multi-byte size vints', () => {
    const doc = Buffer.concat([Buffer.from([0x42, 0x82, 0x40, 0x04]), Buffer.from('webm')]);
    const bytes = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x40, doc.length]), doc]);
    expect(matroskaDocType(bytes)).toBe('webm');
  });

  it('is null for other bytes or a header without DocType', () => {
    expect(matroskaDocType(Buffer.from('OggS\0\0\0\0\0\0\0\0'))).toBeNull();
    expect(matroskaDocType(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x84, 0x42, 0x86, 0x81, 0x01]))).toBeNull();
    expect(matroskaDocType(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x00, 0, 0, 0]))).toBeNull();
  });
});

describe('audioContainerOf', () => {
  it.each([
    ['wav', 'wav'], ['mp3', 'mp3'], ['flac', 'flac'], ['ogg', 'ogg'], ['aac', 'aac'], ['aiff', 'aiff'],
  ])('maps the %s demuxer to %s', (formatName, container) => {
    expect(audioContainerOf({ formatName, codecs: [] })).toBe(container);
  });

  it('calls audio-only ISO media m4a whatever the brand', () => {
    expect(audioContainerOf({ formatName: ISO, majorBrand: 'M4A ', codecs: ['aac'] })).toBe('m4a');
    expect(audioContainerOf({ formatName: ISO, majorBrand: 'isom', codecs: ['aac'] })).toBe('m4a');
  });

  it('splits Matroska audio by DocType, then by codecs', () => {
    expect(audioContainerOf({ formatName: MKV, docType: 'webm', codecs: ['opus'] })).toBe('webm');
    expect(audioContainerOf({ formatName: MKV, docType: 'matroska', codecs: ['opus'] })).toBeNull();
    expect(audioContainerOf({ formatName: MKV, docType: null, codecs: ['vorbis'] })).toBe('webm');
    expect(audioContainerOf({ formatName: MKV, docType: null, codecs: ['aac'] })).toBeNull();
  });

  it('knows no other audio containers', () => {
    expect(audioContainerOf({ formatName: 'w64', codecs: ['pcm_s16le'] })).toBeNull();
    expect(audioContainerOf({ formatName: 'amr', codecs: ['amr_nb'] })).toBeNull();
  });
});

describe('videoContainerOf', () => {
  it('tells mov from mp4 by the major brand', () => {
    expect(videoContainerOf({ formatName: ISO, majorBrand: 'qt  ', codecs: ['h264'] })).toBe('mov');
    expect(videoContainerOf({ formatName: ISO, majorBrand: 'isom', codecs: ['h264'] })).toBe('mp4');
    expect(videoContainerOf({ formatName: ISO, codecs: ['h264'] })).toBe('mp4');
  });

  it('tells webm from mkv by DocType, falling back to codecs', () => {
    expect(videoContainerOf({ formatName: MKV, docType: 'webm', codecs: ['vp9', 'opus'] })).toBe('webm');
    expect(videoContainerOf({ formatName: MKV, docType: 'matroska', codecs: ['vp9'] })).toBe('mkv');
    expect(videoContainerOf({ formatName: MKV, docType: null, codecs: ['h264', 'aac'] })).toBe('mkv');
    expect(videoContainerOf({ formatName: MKV, docType: null, codecs: ['vp8', 'vorbis'] })).toBe('webm');
  });

  it('maps avi and nothing else', () => {
    expect(videoContainerOf({ formatName: 'avi', codecs: ['mpeg4'] })).toBe('avi');
    expect(videoContainerOf({ formatName: 'mpegts', codecs: ['h264'] })).toBeNull();
    expect(videoContainerOf({ formatName: 'gif', codecs: ['gif'] })).toBeNull();
  });
});
