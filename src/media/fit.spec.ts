import { fitWithin } from './fit';

describe('fitWithin', () => {
  it('leaves a size inside the box (or with no box) alone and never upscales', () => {
    expect(fitWithin({ width: 640, height: 480 }, 1024, 768)).toEqual({ width: 640, height: 480 });
    expect(fitWithin({ width: 1024, height: 768 }, 1024, 768)).toEqual({ width: 1024, height: 768 });
    expect(fitWithin({ width: 5000, height: 100 }, null, null)).toEqual({ width: 5000, height: 100 });
  });

  it('scales by the binding side and keeps the aspect ratio', () => {
    expect(fitWithin({ width: 4000, height: 3000 }, 1024, 1024)).toEqual({ width: 1024, height: 768 });
    expect(fitWithin({ width: 3000, height: 4000 }, 1024, 1024)).toEqual({ width: 768, height: 1024 });
    expect(fitWithin({ width: 1920, height: 1080 }, 1280, null)).toEqual({ width: 1280, height: 720 });
    expect(fitWithin({ width: 1920, height: 1080 }, null, 360)).toEqual({ width: 640, height: 360 });
  });

  it('rounds to the nearest pixel, at least one', () => {
    expect(fitWithin({ width: 1000, height: 333 }, 100, null)).toEqual({ width: 100, height: 33 });
    expect(fitWithin({ width: 10000, height: 1 }, 100, null)).toEqual({ width: 100, height: 1 });
  });

  it('rounds down to even sizes for video, at least two', () => {
    expect(fitWithin({ width: 1001, height: 667 }, null, null, true)).toEqual({ width: 1000, height: 666 });
    expect(fitWithin({ width: 1920, height: 1080 }, 1000, null, true)).toEqual({ width: 1000, height: 562 });
    expect(fitWithin({ width: 10000, height: 1 }, 100, null, true)).toEqual({ width: 100, height: 2 });
  });
});
