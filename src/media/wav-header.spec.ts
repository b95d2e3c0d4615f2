import { isFrameAddressable, isWavTruncated, looksLikeWav, parseWavHeader, wavDurationSeconds, WavHeaderError } from './wav-header';

interface WavShape {
  formatTag?: number;
  channels?: number;
  sampleRate?: number;
  bitsPerSample?: number;
  /** Size written in the data chunk header; defaults to the real data length. */
  declaredDataBytes?: number;
  dataBytes: number;
  /** Extra chunk (e.g. LIST) between fmt and data, with an odd size to exercise padding. */
  extraChunkBytes?: number;
}

function wav(shape: WavShape): Buffer {
  const { formatTag = 1, channels = 1, sampleRate = 16000, bitsPerSample = 16, dataBytes } = shape;
  const blockAlign = (channels * bitsPerSample) / 8;
  const fmt = Buffer.alloc(24);
  fmt.write('fmt ', 0, 'latin1');
  fmt.writeUInt32LE(16, 4);
  fmt.writeUInt16LE(formatTag, 8);
  fmt.writeUInt16LE(channels, 10);
  fmt.writeUInt32LE(sampleRate, 12);
  fmt.writeUInt32LE(sampleRate * blockAlign, 16);
  fmt.writeUInt16LE(blockAlign, 20);
  fmt.writeUInt16LE(bitsPerSample, 22);
  const extra = shape.extraChunkBytes === undefined ? Buffer.alloc(0) : chunk('LIST', shape.extraChunkBytes);
  const dataHeader = Buffer.alloc(8);
  dataHeader.write('data', 0, 'latin1');
  dataHeader.writeUInt32LE(shape.declaredDataBytes ?? dataBytes, 4);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(0xffffffff, 4);
  riff.write('WAVE', 8, 'latin1');
  return Buffer.concat([riff, fmt, extra, dataHeader, Buffer.alloc(dataBytes, 1)]);
}

function chunk(id: string, size: number): Buffer {
  const bytes = Buffer.alloc(8 + size + (size % 2));
  bytes.write(id, 0, 'latin1');
  bytes.writeUInt32LE(size, 4);
  return bytes;
}

describe('parseWavHeader', () => {
  it('reads the format and the data chunk position', () => {
    const info = parseWavHeader(wav({ channels: 2, sampleRate: 44100, dataBytes: 400 }));
    expect(info).toEqual({
      formatTag: 1, channels: 2, sampleRate: 44100, blockAlign: 4, bitsPerSample: 16,
      dataOffset: 44, declaredDataBytes: 400, availableDataBytes: 400,
    });
  });

  it('skips other chunks, including the pad byte after an odd-sized one', () => {
    const info = parseWavHeader(wav({ dataBytes: 10, extraChunkBytes: 5 }));
    expect(info.dataOffset).toBe(44 + 8 + 6);
    expect(info.availableDataBytes).toBe(10);
  });

  it('treats 0xFFFFFFFF as a stream of unknown length measured from the bytes present', () => {
    const info = parseWavHeader(wav({ dataBytes: 3200, declaredDataBytes: 0xffffffff }));
    expect(info.declaredDataBytes).toBeNull();
    expect(info.availableDataBytes).toBe(3200);
    expect(isWavTruncated(info)).toBe(false);
    expect(wavDurationSeconds(info)).toBe('0.1');
  });

  it('treats a zero data size followed by samples as streamed too', () => {
    expect(parseWavHeader(wav({ dataBytes: 32, declaredDataBytes: 0 })).declaredDataBytes).toBeNull();
  });

  it('flags a data chunk that declares more than is present as truncated', () => {
    const info = parseWavHeader(wav({ dataBytes: 100, declaredDataBytes: 32000 }));
    expect(info.availableDataBytes).toBe(100);
    expect(isWavTruncated(info)).toBe(true);
  });

  it('ignores bytes after the declared data (trailing chunks)', () => {
    const info = parseWavHeader(wav({ dataBytes: 64, declaredDataBytes: 32 }));
    expect(info.availableDataBytes).toBe(32);
    expect(isWavTruncated(info)).toBe(false);
  });

  it.each([
    ['not RIFF/WAVE', Buffer.from('RIFF\0\0\0\0AVI LIST'), 'not a RIFF/WAVE file'],
    ['no data chunk', wav({ dataBytes: 0 }).subarray(0, 36), 'no data chunk'],
    ['short fmt', Buffer.concat([Buffer.from('RIFF\0\0\0\0WAVE'), chunk('fmt ', 8)]), 'fmt chunk is shorter than 16 bytes'],
    ['zero channels', wav({ channels: 0, dataBytes: 4 }), 'zero channels'],
  ])('rejects %s', (_label, bytes, message) => {
    expect(() => parseWavHeader(bytes)).toThrow(WavHeaderError);
    expect(() => parseWavHeader(bytes)).toThrow(message);
  });

  it('rejects data before fmt', () => {
    const bytes = Buffer.concat([Buffer.from('RIFF\0\0\0\0WAVE'), chunk('data', 4)]);
    expect(() => parseWavHeader(bytes)).toThrow('data chunk comes before the fmt chunk');
  });

  it('recognises RIFF/WAVE by its magic only', () => {
    expect(looksLikeWav(wav({ dataBytes: 2 }))).toBe(true);
    expect(looksLikeWav(Buffer.from('fLaC\0\0\0\0\0\0\0\0'))).toBe(false);
  });
});

describe('wavDurationSeconds', () => {
  it('counts whole sample frames at the sample rate', () => {
    expect(wavDurationSeconds(parseWavHeader(wav({ dataBytes: 32000 })))).toBe('1');
    expect(wavDurationSeconds(parseWavHeader(wav({ channels: 2, sampleRate: 48000, dataBytes: 4 * 72000 })))).toBe('1.5');
    expect(wavDurationSeconds(parseWavHeader(wav({ sampleRate: 24000, bitsPerSample: 24, dataBytes: 3 * 24001 })))).toBe('1.000042');
  });

  it('drops a trailing partial frame', () => {
    expect(wavDurationSeconds(parseWavHeader(wav({ channels: 2, dataBytes: 64003, declaredDataBytes: 0xffffffff })))).toBe('1');
  });

  it('knows which sample formats are one block per frame', () => {
    expect(isFrameAddressable(parseWavHeader(wav({ formatTag: 3, bitsPerSample: 32, dataBytes: 8 })))).toBe(true);
    expect(isFrameAddressable(parseWavHeader(wav({ formatTag: 0xfffe, dataBytes: 8 })))).toBe(true);
    expect(isFrameAddressable(parseWavHeader(wav({ formatTag: 0x11, dataBytes: 8 })))).toBe(false);
  });
});
