// The cheap half of image preparation is pure: a header, the pixel cap and the profile decide
// before any process runs (a PNG's IHDR is all these tests need).
import { inspectImage } from './image-input';

/** A PNG signature and IHDR chunk: enough for the header read, no pixel data at all. */
function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr[16] = 8;
  ihdr[17] = 2;
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), ihdr, Buffer.alloc(16)]);
}

const profile = { accepts: { formats: ['png' as const], max_width: 4096, max_height: 4096 }, converts_to: { format: 'png', max_width: 2048, max_height: 2048 }, metering: 'boundary' as const };
const work = { maxPixels: 1_000_000 } as never;

describe('inspectImage', () => {
  it('accepts within the profile and the cap', () => {
    expect(inspectImage(pngHeader(1000, 1000), profile, { work })).toEqual({ probe: { kind: 'image', format: 'png', width: 1000, height: 1000 }, target: null });
  });

  it('refuses past the pixel cap before the profile is asked, even when the profile would convert it', () => {
    expect(() => inspectImage(pngHeader(1001, 1000), profile, { work })).toThrow(expect.objectContaining({ code: 'image_too_large' }));
  });

  it('names the conversion target when the profile asks for one', () => {
    expect(inspectImage(pngHeader(5000, 100), profile).target).toEqual(profile.converts_to);
  });

  it('refuses what the profile rejects, pointing at the request field', () => {
    expect(() => inspectImage(pngHeader(10, 10), null, { param: 'image' })).toThrow(expect.objectContaining({ code: 'unsupported_media', param: 'image' }));
  });

  it('refuses bytes that are no image', () => {
    expect(() => inspectImage(Buffer.from('not an image at all, just text'), profile)).toThrow(expect.objectContaining({ code: 'unrecognized_container' }));
  });
});
