import { fixtureModel } from '../../../test/support/catalog-model.fixture';
import { maxImageCostMicros } from './max-image-cost';
import { boundImageCount } from '../../billing/metering/output-bounds';
import { meter } from '../../billing/metering/meter';
import { price } from '../../billing/pricing/price';

describe('maximum cost of an image request', () => {
  // 0.002 USD an input image, 0.04 USD an output image; no visual placeholder, so no image tokens.
  const model = fixtureModel({
    kind: 'image',
    architecture: { modality: 'text+image->image', input_modalities: ['text', 'image'], output_modalities: ['image'] },
    pricing: { input: { image: { count: '0.002' } }, output: { image: { count: '0.04' } } },
  });
  const billedFor = (returned: number, requested: number) => {
    const { billed } = boundImageCount(returned, requested);
    return BigInt(price(model, meter(model, { input: { images: [{ width: 64, height: 64 }] }, output: { imageCount: billed } })).costUsdMicros);
  };

  it('is the input images and n output images', () => {
    expect(maxImageCostMicros(model, [{ width: 64, height: 64 }], 2)).toBe(2_000n + 80_000n);
    expect(maxImageCostMicros(model, [], 1)).toBe(40_000n);
  });

  it('is what billing charges for n images, and for n + 1 images no more', () => {
    const max = maxImageCostMicros(model, [{ width: 64, height: 64 }], 2);
    expect(billedFor(2, 2)).toBe(max);
    expect(billedFor(3, 2)).toBe(max);
  });
});
