import { fixtureModel } from '../../../test/support/catalog-model.fixture';
import { ApiError, RequestValidationError } from '../../common/api-error';
import { assertCaptioningShape, CAPTIONING_CHECKS, isCaptioningModel } from './captioning';
import { mediaPayloadOf, rewrittenPart } from './media-parts';
import { sampledFrames, videoDurationSeconds } from './video-sampling';

const captioner = fixtureModel({ architecture: { ...fixtureModel().architecture, input_modalities: ['audio'] } });
const audioPart = { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } };

const thrown = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return null;
};

describe('captioning', () => {
  it('is a chat model taking audio but no text', () => {
    expect(isCaptioningModel(captioner)).toBe(true);
    expect(isCaptioningModel(fixtureModel())).toBe(false);
  });

  it('takes exactly one user message with one input_audio part', () => {
    expect(() => assertCaptioningShape([{ role: 'user', content: [audioPart] }], captioner)).not.toThrow();
    for (const messages of [
      [],
      [{ role: 'system', content: [audioPart] }],
      [{ role: 'user', content: [audioPart, audioPart] }],
      [{ role: 'user', content: [audioPart, { type: 'text', text: 'describe' }] }],
      [{ role: 'user', content: 'describe' }],
    ]) {
      expect(thrown(() => assertCaptioningShape(messages, captioner))).toMatchObject({ status: 400, code: 'invalid_captioning_request' });
    }
  });

  it('caps clips at 240 s inclusive and converted media at 8 MiB inclusive', () => {
    expect(() => CAPTIONING_CHECKS.audioDuration!('240', 'p')).not.toThrow();
    expect(thrown(() => CAPTIONING_CHECKS.audioDuration!('240.000001', 'p'))).toMatchObject({ status: 400, code: 'audio_too_long', param: 'p' });
    expect(() => CAPTIONING_CHECKS.convertedSize!(Buffer.alloc(8 * 1024 * 1024), 'p')).not.toThrow();
    expect((thrown(() => CAPTIONING_CHECKS.convertedSize!(Buffer.alloc(8 * 1024 * 1024 + 1), 'p')) as ApiError).status).toBe(413);
  });
});

describe('media parts', () => {
  it('finds the payload and names its request path', () => {
    expect(mediaPayloadOf({ type: 'image_url', image_url: { url: 'data:x' } }, ['messages', 0, 'content', 2]))
      .toEqual({ kind: 'image', encoding: 'url', text: 'data:x', param: 'messages.0.content.2.image_url.url' });
    expect(mediaPayloadOf(audioPart, ['messages', 1, 'content', 0])).toMatchObject({ kind: 'audio', encoding: 'bare-base64' });
  });

  it('reports a missing payload as a 422 location', () => {
    const error = thrown(() => mediaPayloadOf({ type: 'video_url' }, ['messages', 0, 'content', 0])) as RequestValidationError;
    expect(error.detail[0].loc).toEqual(['body', 'messages', 0, 'content', 0, 'video_url', 'url']);
  });

  it('rewrites the payload and keeps the other fields', () => {
    const bytes = Buffer.from('RIFF');
    const image = { type: 'image_url', image_url: { url: 'data:old', detail: 'low' }, extra: 1 };
    expect(rewrittenPart(image, mediaPayloadOf(image, []), bytes, 'png'))
      .toEqual({ type: 'image_url', image_url: { url: 'data:image/png;base64,UklGRg==', detail: 'low' }, extra: 1 });
    expect(rewrittenPart(audioPart, mediaPayloadOf(audioPart, []), bytes, 'wav')).toEqual({ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } });
  });
});

describe('video sampling', () => {
  it('samples 2 fps by default, at least one frame, never more than the video has', () => {
    expect(sampledFrames({ frameCount: 10, durationSeconds: '1' }, null)).toBe(2);
    expect(sampledFrames({ frameCount: 30, durationSeconds: '2.1' }, null)).toBe(5);
    expect(sampledFrames({ frameCount: 1, durationSeconds: '3' }, null)).toBe(1);
    expect(sampledFrames({ frameCount: 90, durationSeconds: '3' }, { factor: 28, image_min_pixels: 1, video_frames_per_second: 4 })).toBe(12);
  });

  it('derives the duration from frames and rate when the container gives none', () => {
    expect(videoDurationSeconds({ frameCount: 25, frameRate: 10 })).toBe('2.5');
    expect(videoDurationSeconds({ frameCount: 25 })).toBeNull();
    expect(sampledFrames({ frameCount: 25 }, null)).toBe(25);
  });
});
