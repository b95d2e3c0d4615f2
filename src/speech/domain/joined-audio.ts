// Audio of a segmented request (see input-segments.ts) arrives as one upstream stream per segment.
// Joined, it must read as one clip: raw PCM simply follows on; WAV keeps the first segment's header
// and only the sample data of the others.
import { streamedWavHeader } from './streamed-audio';

export type SegmentFormat = 'pcm' | 'wav';

export async function* joinSegments(segments: AsyncIterable<AsyncIterable<Buffer>>, format: SegmentFormat): AsyncGenerator<Buffer> {
  let first = true;
  for await (const segment of segments) {
    yield* first || format === 'pcm' ? segment : samplesOnly(segment);
    first = false;
  }
}

async function* samplesOnly(wav: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let pending: Buffer | null = Buffer.alloc(0);
  for await (const chunk of wav) {
    if (pending === null) {
      yield chunk;
      continue;
    }
    pending = Buffer.concat([pending, chunk]);
    const header = streamedWavHeader(pending);
    if (!header) continue;
    if (pending.length > header.dataOffset) yield pending.subarray(header.dataOffset);
    pending = null;
  }
}

/** A buffered joined WAV states its true sizes (the first segment's header only knew its own). */
export function withExactWavSizes(wav: Buffer): Buffer {
  const header = streamedWavHeader(wav);
  if (!header) return wav;
  const sized = Buffer.from(wav);
  sized.writeUInt32LE(sized.length - 8, 4);
  sized.writeUInt32LE(sized.length - header.dataOffset, header.dataOffset - 4);
  return sized;
}
