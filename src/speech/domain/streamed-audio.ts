// Measures audio while relaying it, chunk by chunk, without keeping it: raw PCM by byte count,
// WAV by its header's layout plus the data bytes that followed. A streamed WAV leaves the gateway
// with 0xFFFFFFFF as its RIFF and data sizes (the length is unknown when the header goes out),
// whatever sizes the upstream wrote.
import type { PcmLayout, WavInfo } from '../../media';
import { parseWavHeader, pcmDurationSeconds, wavDurationSeconds } from '../../media';
import { isFrameAddressable } from '../../media/wav-header';
import { ApiError } from '../../common/api-error';
import { pcmLayoutOf } from './output-layout';
import type { SpeechPlan } from './speech-plan';

export interface StreamedAudioMeter {
  /** Bytes to relay now; may be empty while a header is still incomplete. */
  push(chunk: Buffer): Buffer;
  /** Bytes held back when the upstream ended (a header that never completed). */
  end(): Buffer;
  /** Seconds of audio seen so far, exact decimal string. */
  seconds(): string;
}

export class PcmStreamMeter implements StreamedAudioMeter {
  private bytes = 0;

  constructor(private readonly layout: PcmLayout) {}

  push(chunk: Buffer): Buffer {
    this.bytes += chunk.length;
    return chunk;
  }

  end(): Buffer {
    return Buffer.alloc(0);
  }

  seconds(): string {
    return pcmDurationSeconds(this.bytes, this.layout);
  }
}

/** Streams are pcm or wav (speech-plan.ts); a streamed request without a format is wav. */
export function streamMeterFor(plan: Pick<SpeechPlan, 'model' | 'format'>): StreamedAudioMeter {
  return plan.format === 'pcm' ? new PcmStreamMeter(pcmLayoutOf(plan.model)) : new WavStreamMeter();
}

const UNKNOWN_SIZE = 0xffffffff;
/** A WAV header longer than this is not one a speech model writes. */
const MAX_HEADER_BYTES = 64 * 1024;

export class WavStreamMeter implements StreamedAudioMeter {
  private pending = Buffer.alloc(0);
  private format: WavInfo | null = null;
  private dataBytes = 0;

  push(chunk: Buffer): Buffer {
    if (this.format) {
      this.dataBytes += chunk.length;
      return chunk;
    }
    this.pending = Buffer.concat([this.pending, chunk]);
    const info = streamedWavHeader(this.pending);
    if (!info) return Buffer.alloc(0);
    this.format = info;
    this.dataBytes = this.pending.length - info.dataOffset;
    const relayed = this.pending;
    this.pending = Buffer.alloc(0);
    relayed.writeUInt32LE(UNKNOWN_SIZE, 4);
    relayed.writeUInt32LE(UNKNOWN_SIZE, info.dataOffset - 4);
    return relayed;
  }

  end(): Buffer {
    const rest = this.pending;
    this.pending = Buffer.alloc(0);
    return rest;
  }

  seconds(): string {
    if (!this.format) return '0';
    return wavDurationSeconds({ ...this.format, availableDataBytes: this.dataBytes });
  }
}

/** The parsed header once its data chunk has started; null while more bytes are needed. */
export function streamedWavHeader(bytes: Buffer): WavInfo | null {
  if (bytes.length >= 12 && (bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WAVE')) {
    throw invalidStream('it does not start with a RIFF/WAVE header');
  }
  let info: WavInfo;
  try {
    info = parseWavHeader(bytes);
  } catch {
    if (bytes.length > MAX_HEADER_BYTES) throw invalidStream(`no data chunk within ${MAX_HEADER_BYTES} bytes`);
    return null;
  }
  if (!isFrameAddressable(info)) throw invalidStream(`format tag ${info.formatTag} is not PCM`);
  return info;
}

function invalidStream(reason: string): ApiError {
  return ApiError.upstream('upstream_audio_invalid', `The upstream's streamed WAV is unusable: ${reason}.`);
}
