import { PcmStreamMeter, WavStreamMeter } from './streamed-audio';

function wavHeader(dataSize: number, sampleRate = 24000): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(Math.min(0xffffffff, 36 + dataSize), 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(dataSize, 40);
  return header;
}

describe('WavStreamMeter', () => {
  it('holds bytes until the header is complete, then relays it with 0xFFFFFFFF sizes', () => {
    const meter = new WavStreamMeter();
    const stream = Buffer.concat([wavHeader(4800), Buffer.alloc(4800, 1)]);
    expect(meter.push(stream.subarray(0, 20))).toHaveLength(0);
    const first = meter.push(stream.subarray(20, 100));
    expect(first).toHaveLength(100);
    expect(first.readUInt32LE(4)).toBe(0xffffffff);
    expect(first.readUInt32LE(40)).toBe(0xffffffff);
    expect(first.subarray(44)).toEqual(stream.subarray(44, 100));
    expect(meter.push(stream.subarray(100))).toEqual(stream.subarray(100));
    expect(meter.seconds()).toBe('0.1');
  });

  it('measures only the data bytes that arrived, dropping a partial sample', () => {
    const meter = new WavStreamMeter();
    meter.push(Buffer.concat([wavHeader(0xffffffff, 16000), Buffer.alloc(3201)]));
    expect(meter.seconds()).toBe('0.1');
  });

  it('relays a header that never completed as it was, measuring nothing', () => {
    const meter = new WavStreamMeter();
    const partial = wavHeader(10).subarray(0, 30);
    expect(meter.push(partial)).toHaveLength(0);
    expect(meter.end()).toEqual(partial);
    expect(meter.seconds()).toBe('0');
  });

  it('rejects a stream that is not WAV as an upstream fault', () => {
    const meter = new WavStreamMeter();
    expect(() => meter.push(Buffer.from('ID3\u0003 definitely mp3 bytes'))).toThrow(expect.objectContaining({ status: 502, code: 'upstream_audio_invalid' }));
  });
});

describe('PcmStreamMeter', () => {
  it('measures raw PCM by byte count in the model\'s layout', () => {
    const meter = new PcmStreamMeter({ sampleRate: 24000, sampleFormat: 'pcm16', channels: 1 });
    expect(meter.push(Buffer.alloc(24000))).toHaveLength(24000);
    meter.push(Buffer.alloc(24001));
    expect(meter.seconds()).toBe('1');
  });

  it('counts frames across channels and wider samples', () => {
    const meter = new PcmStreamMeter({ sampleRate: 48000, sampleFormat: 'pcm_f32', channels: 2 });
    meter.push(Buffer.alloc(48000 * 8));
    expect(meter.seconds()).toBe('1');
  });
});
