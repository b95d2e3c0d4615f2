import type { Readable } from 'node:stream';
import { specUsageOf } from '../../billing/client-usage';
import { emptyInputUsage, emptyOutputUsage, type Usage } from '../../billing/usage';
import { PcmStreamMeter } from '../domain/streamed-audio';
import { speechStream, type SpeechStreamParts } from './speech-stream';

const LAYOUT = { sampleRate: 1000, sampleFormat: 'pcm16' as const, channels: 1 };
const usage: Usage = { input: emptyInputUsage(), output: emptyOutputUsage(), cost_usd_micros: 7 };

async function* upstreamOf(chunks: Buffer[], failAfter?: number): AsyncGenerator<Buffer> {
  for (const [index, chunk] of chunks.entries()) {
    if (index === failAfter) throw new Error('upstream broke');
    yield chunk;
  }
}

function parts(upstream: AsyncIterable<Buffer>, sse = false, bill = jest.fn(async () => usage)) {
  const release = jest.fn();
  const stream: SpeechStreamParts = { upstream, meter: new PcmStreamMeter(LAYOUT), sse, bill, release, requestId: 'r1' };
  return { stream, bill, release };
}

async function drain(readable: Readable): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of readable) out.push(Buffer.from(chunk).toString('latin1'));
  return out;
}

describe('speechStream', () => {
  it('relays every chunk, then bills the whole duration once and frees the model', async () => {
    const { stream, bill, release } = parts(upstreamOf([Buffer.alloc(1000), Buffer.alloc(500)]));
    expect((await drain(speechStream(stream))).join('')).toHaveLength(1500);
    expect(bill.mock.calls).toEqual([['0.75']]);
    expect(release).toHaveBeenCalledTimes(1);
  });

  it('wraps audio in sse deltas and ends with a done event carrying the billed usage, as the spec\'s Usage', async () => {
    const { stream } = parts(upstreamOf([Buffer.from('ab'), Buffer.from('cd')]), true);
    const events = (await drain(speechStream(stream))).join('').split('\n\n').filter(Boolean).map((e) => JSON.parse(e.slice(6)));
    expect(events).toEqual([
      { type: 'speech.audio.delta', audio: Buffer.from('ab').toString('base64') },
      { type: 'speech.audio.delta', audio: Buffer.from('cd').toString('base64') },
      { type: 'speech.audio.done', usage: specUsageOf(usage) },
    ]);
  });

  it('bills what was produced when the client goes away mid-stream', async () => {
    let abortUpstream: (reason: Error) => void = () => undefined;
    const aborted = new Promise<never>((_resolve, reject) => (abortUpstream = reject));
    async function* generating(): AsyncGenerator<Buffer> {
      yield Buffer.alloc(200);
      await aborted;
    }
    const { stream, bill, release } = parts(generating());
    const readable = speechStream(stream);
    await readable[Symbol.asyncIterator]().next();
    readable.destroy();
    // What the client's disconnect does to the upstream request (the request's abort signal).
    abortUpstream(new Error('aborted'));
    await new Promise((resolve) => readable.once('close', resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(bill.mock.calls).toEqual([['0.1']]);
    expect(release).toHaveBeenCalledTimes(1);
  });

  it('bills what was produced when the upstream breaks off, and fails the stream', async () => {
    const { stream, bill } = parts(upstreamOf([Buffer.alloc(100), Buffer.alloc(100)], 1));
    await expect(drain(speechStream(stream))).rejects.toThrow('upstream broke');
    expect(bill.mock.calls).toEqual([['0.05']]);
  });

  it('fails the stream without a done event when billing cannot be recorded, and does not bill twice', async () => {
    const failing = jest.fn(async (): Promise<Usage> => {
      throw new Error('event store down');
    });
    const { stream } = parts(upstreamOf([Buffer.from('ab')]), true, failing);
    await expect(drain(speechStream(stream))).rejects.toThrow('event store down');
    expect(failing).toHaveBeenCalledTimes(1);
  });
});
