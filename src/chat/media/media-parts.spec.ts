import { isMediaPart } from './media-parts';

describe('which content parts carry media', () => {
  it('knows the four media part types', () => {
    for (const type of ['input_audio', 'audio_url', 'image_url', 'video_url']) expect(isMediaPart({ type })).toBe(true);
    expect(isMediaPart({ type: 'text', text: 'hi' })).toBe(false);
  });

  // With `in`, these inherited names counted as media parts and got a 422 pointing at `undefined`.
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('does not take a part of type %s for media', (type) => {
    expect(isMediaPart({ type })).toBe(false);
  });
});
