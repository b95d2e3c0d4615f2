import { startTestGateway, TestGateway } from '../support/test-gateway';
import { MAX_DECISION_REQUEST_BYTES } from '../../src/decisions/domain/request-size';
import { billingEventsOf, choice, postDecision, predicate, score } from './decision-client';

describe('POST /v1/decisions: request validation', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  const valid = { model: 'verdict', input: 'The parcel arrived with a broken screen.', questions: [predicate('Is the item damaged?', 'damaged')] };

  async function expectError(body: unknown, status: number, code?: string, param?: string) {
    const reply = await postDecision(gw, body);
    expect(reply.status).toBe(status);
    if (code) expect(reply.body.error).toMatchObject({ code, type: 'invalid_request_error', ...(param ? { param } : {}) });
    expect(await billingEventsOf(gw, reply.requestId)).toEqual([]);
    return reply;
  }

  async function expectValidationIssue(body: unknown, loc: (string | number)[]) {
    const reply = await expectError(body, 422);
    expect(reply.body.detail.map((issue: { loc: unknown }) => issue.loc)).toContainEqual(loc);
  }

  it('answers a valid request (the baseline the other cases vary)', async () => {
    expect((await postDecision(gw, valid)).status).toBe(200);
  });

  it('needs a key', async () => {
    const reply = await postDecision(gw, valid, { authorization: 'Bearer nope' });
    expect(reply.status).toBe(401);
  });

  it('404s an unknown model and 400s a model that is not a decision model', async () => {
    await expectError({ ...valid, model: 'oracle' }, 404, undefined);
    await expectError({ ...valid, model: 'aria' }, 400, 'unsupported_model', 'model');
  });

  it('422s a missing model, input or questions', async () => {
    await expectValidationIssue({ input: 'x', questions: valid.questions }, ['body', 'model']);
    await expectValidationIssue({ model: 'verdict', questions: valid.questions }, ['body', 'input']);
    await expectValidationIssue({ model: 'verdict', input: 'x' }, ['body', 'questions']);
  });

  it('takes 1 to 200 questions', async () => {
    await expectValidationIssue({ ...valid, questions: [] }, ['body', 'questions']);
    const many = (count: number) => Array.from({ length: count }, (_, i) => predicate(`Question ${i}?`));
    expect((await postDecision(gw, { ...valid, questions: many(200) })).status).toBe(200);
    await expectValidationIssue({ ...valid, questions: many(201) }, ['body', 'questions']);
  });

  it('checks each question: known type (400 outside the enum), instructions, string name', async () => {
    await expectError({ ...valid, questions: [predicate('a?'), { type: 'ranking', instructions: 'x' }] }, 400, 'invalid_enum_value', 'questions.1.type');
    await expectValidationIssue({ ...valid, questions: [{ type: 'predicate' }] }, ['body', 'questions', 0, 'instructions']);
    await expectValidationIssue({ ...valid, questions: [{ type: 'predicate', instructions: 'x', name: 7 }] }, ['body', 'questions', 0, 'name']);
  });

  it('400s a name used twice', async () => {
    await expectError({ ...valid, questions: [predicate('a?', 'same'), predicate('b?', 'other'), predicate('c?', 'same')] }, 400, 'duplicate_question_name', 'questions.2.name');
  });

  it('takes 2 to 255 choices with distinct typed values', async () => {
    await expectError({ ...valid, questions: [choice('one?', ['only'])] }, 400, 'invalid_choices');
    const values = (count: number) => Array.from({ length: count }, (_, i) => `option-${i}`);
    expect((await postDecision(gw, { ...valid, questions: [choice('many?', values(255))] })).status).toBe(200);
    await expectError({ ...valid, questions: [choice('too many?', values(256))] }, 400, 'invalid_choices');
    await expectError({ ...valid, questions: [choice('dup?', ['a', 'b', 'a'])] }, 400, 'duplicate_choice_value', 'questions.0.choices.2.value');
    expect((await postDecision(gw, { ...valid, questions: [choice('typed?', ['true', true])] })).status).toBe(200);
    await expectValidationIssue({ ...valid, questions: [{ type: 'choice', instructions: 'x', choices: [{ value: 1 }, { value: 2 }] }] }, ['body', 'questions', 0, 'choices', 0, 'value']);
    await expectValidationIssue({ ...valid, questions: [{ type: 'choice', instructions: 'x' }] }, ['body', 'questions', 0, 'choices']);
  });

  it('takes 2 to 10 ascending levels starting at value 0', async () => {
    await expectError({ ...valid, questions: [score('one level?', ['only'])] }, 400, 'invalid_levels', 'questions.0.levels');
    const labels = (count: number) => Array.from({ length: count }, (_, i) => `level-${i}`);
    expect((await postDecision(gw, { ...valid, questions: [score('ten?', labels(10))] })).status).toBe(200);
    await expectError({ ...valid, questions: [score('eleven?', labels(11))] }, 400, 'invalid_levels');
    const levels = (...values: number[]) => values.map((value, i) => ({ label: `l${i}`, value }));
    expect((await postDecision(gw, { ...valid, questions: [{ type: 'score', instructions: 'x', levels: levels(0, 5, 10) }] })).status).toBe(200);
    await expectError({ ...valid, questions: [{ type: 'score', instructions: 'x', levels: levels(1, 2) }] }, 400, 'invalid_levels', 'questions.0.levels.0.value');
    await expectError({ ...valid, questions: [{ type: 'score', instructions: 'x', levels: levels(0, 5, 5) }] }, 400, 'invalid_levels', 'questions.0.levels.2.value');
    await expectValidationIssue({ ...valid, questions: [{ type: 'score', instructions: 'x', levels: [{ label: 'a' }, { label: 2 }] }] }, ['body', 'questions', 0, 'levels', 1, 'label']);
  });

  it('checks the input messages: user role, string or part content, known part types and details', async () => {
    await expectValidationIssue({ ...valid, input: 42 }, ['body', 'input']);
    await expectValidationIssue({ ...valid, input: [{ role: 'user', content: [{ type: 'input_text' }] }] }, ['body', 'input', 0, 'content', 0, 'text']);
    await expectError({ ...valid, input: [{ role: 'system', content: 'x' }] }, 400, 'invalid_enum_value', 'input.0.role');
    await expectError({ ...valid, input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'f' }] }] }, 400, 'invalid_enum_value', 'input.0.content.0.type');
    const image = (detail: string) => ({ role: 'user', content: [{ type: 'input_image', image_url: 'https://images.example.com/a.png', detail }] });
    await expectError({ ...valid, input: [image('ultra')] }, 400, 'invalid_enum_value', 'input.0.content.0.detail');
    for (const detail of ['low', 'high', 'auto', 'original']) expect((await postDecision(gw, { ...valid, input: [image(detail)] })).status).toBe(200);
    expect((await postDecision(gw, { ...valid, input: [{ role: 'user', content: [{ type: 'input_text', text: 'hello' }] }] })).status).toBe(200);
  });

  it('takes image URLs that are data: URLs or public https only', async () => {
    const at = (image_url: string) => ({ ...valid, input: [{ role: 'user', content: [{ type: 'input_text', text: 'x' }, { type: 'input_image', image_url }] }] });
    await expectError(at('http://images.example.com/a.png'), 400, 'invalid_image_url', 'input.0.content.1.image_url');
    await expectError(at('https://127.0.0.1/a.png'), 400, 'invalid_image_url');
    await expectError(at('https://localhost/a.png'), 400, 'invalid_image_url');
    await expectError(at('file:///etc/passwd'), 400, 'invalid_image_url');
  });

  it('limits the images per request to the catalog count of the model', async () => {
    const part = { type: 'input_image', image_url: 'https://images.example.com/a.png' };
    const limit = gw.config.models.find((m) => m.id === 'verdict')!.max_images_per_request!;
    const withImages = (count: number) => ({ ...valid, input: [{ role: 'user', content: Array(count).fill(part) }] });
    expect((await postDecision(gw, withImages(limit))).status).toBe(200);
    await expectError(withImages(limit + 1), 400, 'too_many_images', 'input');
  });

  it('takes input_audio as bare base64 with a format, never a data: URL', async () => {
    await expectError({ ...valid, input_audio: { data: 'data:audio/wav;base64,UklGRg==', format: 'wav' } }, 400, 'invalid_base64', 'input_audio.data');
    await expectError({ ...valid, input_audio: { data: 'not base64!', format: 'wav' } }, 400, 'invalid_base64', 'input_audio.data');
    await expectError({ ...valid, input_audio: { data: Buffer.from('these bytes are plain text, not audio at all').toString('base64'), format: 'wav' } }, 400, 'unrecognized_container', 'input_audio.data');
    await expectValidationIssue({ ...valid, input_audio: { format: 'wav' } }, ['body', 'input_audio', 'data']);
  });

  it('takes a safety_identifier of at most 128 characters', async () => {
    expect((await postDecision(gw, { ...valid, safety_identifier: 'u'.repeat(128) })).status).toBe(200);
    await expectValidationIssue({ ...valid, safety_identifier: 'u'.repeat(129) }, ['body', 'safety_identifier']);
  });

  it('has no streaming mode', async () => {
    await expectError({ ...valid, stream: true }, 400, 'streaming_unsupported', 'stream');
    expect((await postDecision(gw, { ...valid, stream: false })).status).toBe(200);
  });

  it('refuses a request over the decisions cap with 413 before validating it', async () => {
    const padding = 'x'.repeat(MAX_DECISION_REQUEST_BYTES);
    const reply = await expectError({ model: 'verdict', input: padding }, 413, 'request_too_large');
    expect(reply.body.error.message).toContain(String(MAX_DECISION_REQUEST_BYTES));
  });
});
