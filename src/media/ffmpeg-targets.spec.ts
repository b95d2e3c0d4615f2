import { audioOutputArgs, imageOutputArgs, UnsupportedTargetError, videoOutputArgs } from './ffmpeg-targets';

describe('audioOutputArgs', () => {
  it('builds PCM WAV with the requested rate and channels', () => {
    expect(audioOutputArgs({ codec: 'pcm_s16le', container: 'wav', sample_rate: 16000, channels: 1 })).toEqual({
      args: ['-map', '0:a:0', '-vn', '-c:a', 'pcm_s16le', '-ar', '16000', '-ac', '1', '-f', 'wav'],
      extension: 'wav',
    });
  });

  it('keeps the source rate and channels when the target leaves them null', () => {
    const { args } = audioOutputArgs({ codec: 'opus', container: 'ogg', sample_rate: null, channels: null });
    expect(args).toEqual(['-map', '0:a:0', '-vn', '-c:a', 'libopus', '-b:a', '96k', '-f', 'ogg']);
  });

  it('writes m4a with the index at the front', () => {
    expect(audioOutputArgs({ codec: 'aac', container: 'm4a' }).args).toEqual(
      ['-map', '0:a:0', '-vn', '-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart', '-f', 'ipod'],
    );
  });

  it('refuses codecs and containers the build cannot write', () => {
    expect(() => audioOutputArgs({ codec: 'wma', container: 'wav' })).toThrow(UnsupportedTargetError);
    expect(() => audioOutputArgs({ codec: 'mp3', container: 'mkv' })).toThrow('Audio target container mkv is not supported');
    expect(() => audioOutputArgs({ codec: 'pcm_s16le; rm -rf /', container: 'wav' })).toThrow(UnsupportedTargetError);
  });
});

describe('imageOutputArgs', () => {
  it('scales the first frame and picks the encoder', () => {
    expect(imageOutputArgs('jpeg', { width: 320, height: 240 })).toEqual({
      args: ['-map', '0:v:0', '-frames:v', '1', '-vf', 'scale=320:240', '-c:v', 'mjpeg', '-q:v', '2', '-pix_fmt', 'yuvj444p', '-f', 'image2'],
      extension: 'jpg',
    });
    expect(imageOutputArgs('jpg', { width: 1, height: 1 }).extension).toBe('jpg');
    expect(imageOutputArgs('webp', { width: 1, height: 1 }).extension).toBe('webp');
  });

  it('refuses formats outside the spec', () => {
    expect(() => imageOutputArgs('bmp', { width: 1, height: 1 })).toThrow('Image target format bmp is not supported');
  });
});

describe('videoOutputArgs', () => {
  const target = { video_codec: 'h264', container: 'mp4', max_width: 640, max_height: 360 };

  it('keeps audio by default when the source has it', () => {
    expect(videoOutputArgs(target, { width: 640, height: 360 }, true).args).toEqual([
      '-map', '0:v:0', '-vf', 'scale=640:360', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p',
      '-map', '0:a:0', '-c:a', 'aac', '-movflags', '+faststart', '-f', 'mp4',
    ]);
  });

  it('drops audio when asked or when there is none', () => {
    expect(videoOutputArgs({ ...target, keep_audio: false }, { width: 2, height: 2 }, true).args).toContain('-an');
    expect(videoOutputArgs(target, { width: 2, height: 2 }, false).args).toContain('-an');
  });

  it('accepts encoder aliases and picks the container audio codec', () => {
    const { args, extension } = videoOutputArgs({ video_codec: 'libvpx-vp9', container: 'webm' }, { width: 2, height: 2 }, true);
    expect(args).toEqual(expect.arrayContaining(['libvpx-vp9', 'libopus']));
    expect(extension).toBe('webm');
  });

  it('refuses unknown codecs and containers', () => {
    expect(() => videoOutputArgs({ video_codec: 'prores', container: 'mov' }, { width: 2, height: 2 }, false)).toThrow(UnsupportedTargetError);
    expect(() => videoOutputArgs({ video_codec: 'h264', container: 'flv' }, { width: 2, height: 2 }, false)).toThrow('Video target container flv');
  });
});
