import { toFile } from 'openai';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { imageFixture } from '../fixtures/media/generate';
import { imagesResponseText } from '../../src/simulator/images.routes';
import { billingEventsOf, lastImageRequest, postImageForm, postImageJson, sha256 } from './image-client';

describe('POST /v1/images/{path}: relay', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  it('relays an edit with several images byte for byte and returns the upstream JSON verbatim', async () => {
    const uploads = [
      { field: 'image[]', bytes: await imageFixture({ format: 'png', width: 1000, height: 500 }), filename: 'room.png', type: 'image/png' },
      { field: 'image[]', bytes: await imageFixture({ format: 'jpeg', width: 640, height: 480 }), filename: 'sofa.jpg', type: 'image/jpeg' },
      { field: 'image[]', bytes: await imageFixture({ format: 'webp', width: 300, height: 200 }), filename: 'lamp.webp', type: 'image/webp' },
    ];
    const response = await postImageForm(gw, 'edits', { prompt: 'Put the sofa and the lamp in the room', n: '2', model: 'canvas' }, uploads);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const received = lastImageRequest(gw, 'edits');
    expect(received.files.map(({ field, filename, type, size, sha256: digest }) => ({ field, filename, type, size, sha256: digest }))).toEqual(
      uploads.map((upload) => ({ field: upload.field, filename: upload.filename, type: upload.type, size: upload.bytes.length, sha256: sha256(upload.bytes) })),
    );
    expect(received.fields).toEqual({ prompt: 'Put the sofa and the lamp in the room', n: '2', model: 'canvas' });
    expect(await response.text()).toBe(await imagesResponseText('edits', received));

    const [measured, priced] = await billingEventsOf(gw, response.headers.get('x-request-id'));
    expect(measured.data).toMatchObject({
      endpoint: '/v1/images/edits',
      model: 'canvas',
      input: { image: { count: 3, megapixels: '0.8672' } },
      output: { image: { count: 2 } },
    });
    // canvas: 0.002 USD an input image, 0.04 USD an output image.
    expect((priced.data as { costUsdMicros: number }).costUsdMicros).toBe(3 * 2_000 + 2 * 40_000);
  });

  it('serves images.edit, images.generate and images.createVariation of the official SDK', async () => {
    const client = gw.openai();
    const png = await imageFixture({ format: 'png', width: 256, height: 256 });
    const edited = await client.images.edit({ model: 'canvas', prompt: 'Add a hat', image: await toFile(png, 'cat.png', { type: 'image/png' }) });
    expect(edited.data?.[0].url).toMatch(/^https:\/\/images\.simulator\.invalid\/edits\//);
    expect(lastImageRequest(gw, 'edits').files).toEqual([expect.objectContaining({ field: 'image', sha256: sha256(png) })]);

    const several = [await toFile(png, 'a.png', { type: 'image/png' }), await toFile(png, 'b.png', { type: 'image/png' })];
    await client.images.edit({ model: 'canvas', prompt: 'Merge', image: several });
    expect(lastImageRequest(gw, 'edits').files.map((file) => file.field)).toEqual(['image[]', 'image[]']);

    const generated = await client.images.generate({ model: 'canvas', prompt: 'A lighthouse at dusk', n: 2, size: '1024x1024' });
    expect(generated.data).toHaveLength(2);
    expect(lastImageRequest(gw, 'generations').fields).toEqual({ model: 'canvas', prompt: 'A lighthouse at dusk', n: '2', size: '1024x1024' });

    const variation = await client.images.createVariation({ model: 'canvas', image: await toFile(png, 'cat.png', { type: 'image/png' }), response_format: 'b64_json' });
    const picture = Buffer.from(variation.data![0].b64_json!, 'base64');
    expect(picture.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('bills a generation by output images only', async () => {
    const response = await postImageJson(gw, 'generations', { model: 'canvas', prompt: 'A red kite', n: 3 });
    expect(response.status).toBe(200);
    expect(JSON.parse(await response.text()).data).toHaveLength(3);
    const [measured, priced] = await billingEventsOf(gw, response.headers.get('x-request-id'));
    expect(measured.data).toMatchObject({ endpoint: '/v1/images/generations', input: { image: { count: 0, megapixels: '0' } }, output: { image: { count: 3 } } });
    expect((priced.data as { costUsdMicros: number }).costUsdMicros).toBe(3 * 40_000);
  });

  it('relays a large upload intact', async () => {
    const large = await imageFixture({ format: 'png', width: 4000, height: 3000 });
    const response = await postImageForm(gw, 'variations', { model: 'canvas' }, [{ field: 'image', bytes: large, filename: 'big.png', type: 'image/png' }]);
    expect(response.status).toBe(200);
    expect(lastImageRequest(gw, 'variations').files[0]).toMatchObject({ size: large.length, sha256: sha256(large) });
  });
});
