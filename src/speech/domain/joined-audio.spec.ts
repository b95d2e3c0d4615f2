import { parseWavHeader, wavDurationSeconds } from '../../media';
import { joinSegments, withExactWavSizes } from './joined-audio';

function wav(samples: number[]): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((sample, i) => data.writeInt16LE(sample, i * 2));
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

async function* chunked(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function* segments(...streams: AsyncIterable<Buffer>[]): AsyncGenerator<AsyncIterable<Buffer>> {
  yield* streams;
}

async function collect(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe('joinSegments', () => {
  it('keeps the first WAV header and only the samples of later segments, however they are chunked', async () => {
    const joined = await collect(joinSegments(segments(chunked(wav([1, 2]), 7), chunked(wav([3, 4, 5]), 5), chunked(wav([6]), 50)), 'wav'));
    expect(joined.subarray(0, 44)).toEqual(wav([1, 2]).subarray(0, 44));
    expect(joined.subarray(44)).toEqual(wav([1, 2, 3, 4, 5, 6]).subarray(44));
  });

  it('concatenates raw PCM as it is', async () => {
    const joined = await collect(joinSegments(segments(chunked(Buffer.from([1, 2]), 1), chunked(Buffer.from([3]), 1)), 'pcm'));
    expect(joined).toEqual(Buffer.from([1, 2, 3]));
  });
});

describe('withExactWavSizes', () => {
  it('rewrites the RIFF and data sizes to what the joined file holds', () => {
    const firstHeader = wav([1, 2]).subarray(0, 44);
    const joined = withExactWavSizes(Buffer.concat([firstHeader, Buffer.alloc(8000 * 2)]));
    expect(joined.readUInt32LE(4)).toBe(36 + 16000);
    expect(joined.readUInt32LE(40)).toBe(16000);
    expect(wavDurationSeconds(parseWavHeader(joined))).toBe('1');
  });
});
