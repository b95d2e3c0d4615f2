import { audioStreams, FfprobeReport, reasonSuffix, videoStreams } from './ffprobe';
import { frameRateOf } from './video-probe';

describe('reasonSuffix', () => {
  it('keeps the first line without codec addresses or input names', () => {
    expect(reasonSuffix('[flac @ 0x3e1fa740] invalid residual\n[flac @ 0x3e1fa740] decode_frame() failed')).toBe(': [flac] invalid residual');
    expect(reasonSuffix('fd:: End of file')).toBe(': End of file');
    expect(reasonSuffix('/tmp/gateway-media-Ab12/input: Invalid data found when processing input')).toBe(': Invalid data found when processing input');
    expect(reasonSuffix('pipe:: Invalid argument')).toBe(': Invalid argument');
  });

  it('is empty when nothing was logged', () => {
    expect(reasonSuffix('')).toBe('');
    expect(reasonSuffix('\n  \n')).toBe('');
  });
});

describe('stream selection', () => {
  const report: FfprobeReport = {
    format: { format_name: 'mp3' },
    streams: [
      { index: 0, codec_type: 'audio', codec_name: 'mp3' },
      { index: 1, codec_type: 'video', codec_name: 'mjpeg', disposition: { attached_pic: 1 } },
    ],
    errors: '',
  };

  it('ignores cover art when looking for video', () => {
    expect(videoStreams(report)).toEqual([]);
    expect(audioStreams(report).map((s) => s.codec_name)).toEqual(['mp3']);
  });
});

describe('frameRateOf', () => {
  it('prefers the average rate and parses fractions', () => {
    expect(frameRateOf({ avg_frame_rate: '30000/1001', r_frame_rate: '60/1' })).toBeCloseTo(29.97, 2);
    expect(frameRateOf({ avg_frame_rate: '0/0', r_frame_rate: '25/1' })).toBe(25);
    expect(frameRateOf({ avg_frame_rate: '24' })).toBe(24);
  });

  it('is undefined when neither rate is usable', () => {
    expect(frameRateOf({ avg_frame_rate: '0/0', r_frame_rate: '0/0' })).toBeUndefined();
    expect(frameRateOf({})).toBeUndefined();
  });
});
