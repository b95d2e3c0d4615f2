import { startTestGateway, TestGateway } from '../support/test-gateway';
import { imageFixture } from '../fixtures/media/generate';
import { billingEventsOf, postImageForm, postImageJson, Upload } from './image-client';

describe('POST /v1/images/{path}: refusals and upstream failures (none billed)', () => {
  let gw: TestGateway;
  let png: Upload;
  beforeAll(async () => {
    gw = await startTestGateway();
    png = { field: 'image', bytes: await imageFixture({ format: 'png' }), filename: 'a.png', type: 'image/png' };
  });
  afterAll(() => gw.close());
  afterEach(() => gw.simulator.control.set('canvas', { kind: 'ok' }));

  async function expectRefusal(response: Response, status: number, code: string, param?: string) {
    expect(response.status).toBe(status);
    const body = (await response.json()) as { error: { code: string; param: string | null } };
    expect(body.error.code).toBe(code);
    if (param !== undefined) expect(body.error.param).toBe(param);
    expect(await billingEventsOf(gw, response.headers.get('x-request-id'))).toEqual([]);
  }

  it('needs a key', async () => {
    const response = await fetch(`${gw.baseUrl}/v1/images/generations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(401);
  });

  it('404s paths other than generations, edits and variations', async () => {
    await expectRefusal(await postImageJson(gw, 'upscale', { model: 'canvas', prompt: 'x' }), 404, 'not_found');
    await expectRefusal(await postImageForm(gw, 'edits/extra', { model: 'canvas', prompt: 'x' }, [png]), 404, 'not_found');
  });

  it('400s a request with no model, 404s an unknown one and 400s a model of another kind', async () => {
    await expectRefusal(await postImageForm(gw, 'edits', { prompt: 'x' }, [png]), 400, 'missing_model', 'model');
    await expectRefusal(await postImageJson(gw, 'generations', { prompt: 'x' }), 400, 'missing_model', 'model');
    await expectRefusal(await postImageForm(gw, 'edits', { model: 'picasso', prompt: 'x' }, [png]), 404, 'model_not_found');
    await expectRefusal(await postImageForm(gw, 'edits', { model: 'aria', prompt: 'x' }, [png]), 400, 'unsupported_model');
  });

  it('needs a prompt and an image where the operation does', async () => {
    await expectRefusal(await postImageForm(gw, 'edits', { model: 'canvas' }, [png]), 400, 'missing_required_parameter', 'prompt');
    await expectRefusal(await postImageForm(gw, 'edits', { model: 'canvas', prompt: 'x' }), 400, 'missing_required_parameter', 'image');
    await expectRefusal(await postImageForm(gw, 'variations', { model: 'canvas' }), 400, 'missing_required_parameter', 'image');
    await expectRefusal(await postImageJson(gw, 'generations', { model: 'canvas' }), 400, 'missing_required_parameter', 'prompt');
  });

  it('takes response_format url or b64_json only, and does not stream', async () => {
    await expectRefusal(await postImageForm(gw, 'edits', { model: 'canvas', prompt: 'x', response_format: 'png' }, [png]), 400, 'unsupported_response_format', 'response_format');
    await expectRefusal(await postImageJson(gw, 'generations', { model: 'canvas', prompt: 'x', stream: true }), 400, 'streaming_unsupported');
  });

  it('415s a body of the wrong kind for the operation', async () => {
    await expectRefusal(await postImageForm(gw, 'generations', { model: 'canvas', prompt: 'x' }), 415, 'unsupported_media_type');
    await expectRefusal(await postImageJson(gw, 'edits', { model: 'canvas', prompt: 'x' }), 415, 'unsupported_media_type');
  });

  it('refuses uploads that are no image, or an image outside the model profile', async () => {
    const text = { field: 'image', bytes: Buffer.from('just some words, no pixels'), filename: 'a.png', type: 'image/png' };
    await expectRefusal(await postImageForm(gw, 'edits', { model: 'canvas', prompt: 'x' }, [png, text]), 400, 'unrecognized_container', 'image');
    const gif = { field: 'image[]', bytes: await imageFixture({ format: 'gif' }), filename: 'a.gif', type: 'image/gif' };
    await expectRefusal(await postImageForm(gw, 'edits', { model: 'canvas', prompt: 'x' }, [gif]), 400, 'unsupported_media', 'image[]');
    const wide = { field: 'image', bytes: await imageFixture({ format: 'png', width: 4097, height: 16 }), filename: 'w.png', type: 'image/png' };
    await expectRefusal(await postImageForm(gw, 'variations', { model: 'canvas' }, [wide]), 400, 'unsupported_media', 'image');
  });

  it('502s an upstream failure and a 200 that is not an images response', async () => {
    gw.simulator.control.set('canvas', { kind: 'fail', status: 500 });
    await expectRefusal(await postImageJson(gw, 'generations', { model: 'canvas', prompt: 'x' }), 502, 'upstream_error');
    gw.simulator.control.set('canvas', { kind: 'quirk', name: 'not_images' });
    await expectRefusal(await postImageForm(gw, 'edits', { model: 'canvas', prompt: 'x' }, [png]), 502, 'invalid_upstream_response');
  });

  it('relays the upstream refusing a request (4xx) with its message', async () => {
    gw.simulator.control.set('canvas', { kind: 'fail', status: 400, body: { error: { message: 'prompt rejected by safety system', type: 'invalid_request_error' } } });
    const response = await postImageJson(gw, 'generations', { model: 'canvas', prompt: 'x' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe('prompt rejected by safety system');
  });
});
