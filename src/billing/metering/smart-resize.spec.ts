import type { VisualPlaceholder } from '../../catalog/catalog.types';
import { smartResize, visualTokens } from './smart-resize';

const placeholder = (factor: number, minPixels: number, maxPixels?: number): VisualPlaceholder => ({
  factor,
  image_min_pixels: minPixels,
  ...(maxPixels === undefined ? {} : { image_max_pixels: maxPixels }),
});

// Expected values were produced by qwen-vl-utils' smart_resize (Python) for the same inputs.
describe('smartResize (Qwen2-VL reference vectors)', () => {
  it.each([
    // height, width, factor, min pixels, max pixels, resized height, resized width, tokens
    [1080, 1920, 28, 3136, undefined, 1092, 1932, 2691],
    [224, 224, 28, 3136, undefined, 224, 224, 64],
    [512, 512, 28, 3136, undefined, 504, 504, 324],
    // halves round to even like Python's round(): 42/28 = 1.5 -> 2, 70/28 = 2.5 -> 2, 98/28 = 3.5 -> 4
    [42, 42, 28, 3136, undefined, 56, 56, 4],
    [70, 70, 28, 3136, undefined, 56, 56, 4],
    [98, 98, 28, 3136, undefined, 112, 112, 16],
    // below the minimum: scaled up by sqrt(min / pixels), sides rounded up
    [10, 10, 28, 3136, undefined, 56, 56, 4],
    [50, 60, 28, 3136, undefined, 56, 56, 4],
    [100, 1000, 28, 3136, undefined, 112, 1008, 144],
    [1, 100, 28, 3136, undefined, 28, 112, 4],
    // above the maximum: scaled down by sqrt(pixels / max), sides rounded down
    [4000, 6000, 28, 3136, 1280 * 784, 812, 1204, 1247],
    [3000, 4000, 28, 256 * 784, 1280 * 784, 840, 1148, 1230],
    [480, 640, 28, 128 * 784, 768 * 784, 476, 644, 391],
    // default maximum is 16384 patches (16384 * 28 * 28 pixels at factor 28)
    [8000, 8000, 28, 3136, undefined, 3584, 3584, 16384],
    [1024, 768, 32, 4 * 32 * 32, undefined, 1024, 768, 768],
  ])('%i x %i at factor %i -> %i x %i', (height, width, factor, min, max, resizedHeight, resizedWidth, tokens) => {
    const visual = placeholder(factor, min, max);
    expect(smartResize(height, width, visual)).toEqual({ height: resizedHeight, width: resizedWidth });
    expect(visualTokens(height, width, visual)).toBe(tokens);
  });
});
