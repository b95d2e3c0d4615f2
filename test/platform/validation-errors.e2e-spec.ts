// Issue 27: every 422, whichever endpoint and whether the body or the query is at fault, keeps the
// spec's detail[] and carries the error object the OpenAI SDK turns into its message.
import OpenAI from 'openai';
import { startTestGateway, TestGateway } from '../support/test-gateway';

describe('422 bodies name the failing field for SDKs (issue 27)', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  const failure = (call: Promise<unknown>) => call.then(() => null, (e: unknown) => e as InstanceType<typeof OpenAI.UnprocessableEntityError>);

  it('speech: a speed just past its edge', async () => {
    const error = await failure(gw.openai().audio.speech.create({ model: 'chorus', voice: 'vivian', input: 'hi', speed: 4.01 }));
    expect(error).toBeInstanceOf(OpenAI.UnprocessableEntityError);
    expect(error!.message).toBe('422 speed: must not be greater than 4');
    expect(error).toMatchObject({ param: 'speed', code: 'invalid_value', type: 'invalid_request_error' });
  });

  it('costs: a missing query parameter', async () => {
    const error = await failure(gw.openai().get('/organization/costs'));
    expect(error!.status).toBe(422);
    expect(error!.message).toBe('422 start_time: Field required');
    expect(error).toMatchObject({ param: 'start_time', code: 'missing_required_parameter' });
  });

  it('keeps detail[] beside error, first issue first', async () => {
    const res = await gw.postJson('/v1/chat/completions', { model: 'aria', messages: [{ role: 'user' }], temperature: 3 });
    const body = (await res.json()) as { detail: { loc: unknown[] }[]; error: { message: string; param: string } };
    expect(res.status).toBe(422);
    expect(body.detail.map((issue) => issue.loc)).toEqual([['body', 'messages', 0, 'content'], ['body', 'temperature']]);
    expect(body.error).toMatchObject({ param: 'messages[0].content', message: 'messages[0].content: is required (and 1 more in detail)' });
  });
});
