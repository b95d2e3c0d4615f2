import { startTestGateway, TestGateway } from '../support/test-gateway';
import { billingEventsOf, choice, postDecision, predicate, score } from './decision-client';

describe('POST /v1/decisions: a model whose answers do not fit is a 502 (and not billed)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  afterEach(() => gw.simulator.control.set('verdict', { kind: 'ok' }));

  const request = {
    model: 'verdict',
    input: 'Ticket: the app crashes on start.',
    questions: [predicate('Is it a bug?', 'bug'), choice('Which team?', ['mobile', 'web'], 'team'), score('How severe?', ['minor', 'major', 'critical'], 'severity')],
  };

  async function expect502(code: string) {
    const reply = await postDecision(gw, request);
    expect(reply.status).toBe(502);
    expect(reply.body.error).toMatchObject({ code, type: 'upstream_error' });
    expect(await billingEventsOf(gw, reply.requestId)).toEqual([]);
    return reply;
  }

  it.each([
    ['missing_answer', 'answers for 3 questions'],
    ['extra_answer', '4 answers'],
    ['reversed', 'answers[0] is named "severity"'],
    ['renamed', 'is named "renamed-bug"'],
    ['wrong_type', 'for a predicate question'],
    ['unnormalised', 'answers[1].probabilities sum to 1.5'],
    ['negative', 'not a probability between 0 and 1'],
    ['non_finite', 'Infinity'],
    ['no_usage', 'usage is not an object'],
    ['foreign_choice', 'answers[1].choice is "option-0", not one of the question\'s choices'],
    ['not_json', 'not JSON'],
  ])('quirk %s -> 502 invalid_upstream_answers', async (quirk, detail) => {
    gw.simulator.control.set('verdict', { kind: 'quirk', name: quirk });
    const reply = await expect502('invalid_upstream_answers');
    expect(reply.body.error.message).toContain(detail);
  });

  it('refuses a choice of the wrong type (a string for a boolean option), never repairing it', async () => {
    gw.simulator.control.set('verdict', { kind: 'quirk', name: 'string_choice' });
    const reply = await postDecision(gw, { ...request, questions: [choice('Is it urgent?', [true, false], 'urgent')] });
    expect(reply.status).toBe(502);
    expect(reply.body.error).toMatchObject({ code: 'invalid_upstream_answers', type: 'upstream_error' });
    expect(reply.body.error.message).toMatch(/answers\[0\]\.choice is "(true|false)", not one of the question's choices/);
    expect(await billingEventsOf(gw, reply.requestId)).toEqual([]);
  });

  it('refuses a distribution that does not sum to 1 even when each probability is in range', async () => {
    const reply = await postDecision(gw, { ...request, questions: [choice('Which? [sim:probabilities=0.2,0.2]', ['a', 'b'])] });
    expect(reply.status).toBe(502);
    expect(reply.body.error.message).toContain('sum to 0.4');
  });

  it('turns a model error (5xx or 4xx) into 502 upstream_error', async () => {
    gw.simulator.control.set('verdict', { kind: 'fail', status: 500 });
    await expect502('upstream_error');
    gw.simulator.control.set('verdict', { kind: 'fail', status: 400, body: { error: { message: 'bad questions', type: 'invalid_request_error' } } });
    const reply = await expect502('upstream_error');
    expect(reply.body.error.message).toContain('bad questions');
  });

  it('succeeds on retry once the model answers properly', async () => {
    gw.simulator.control.set('verdict', { kind: 'quirk', name: 'reversed' });
    await expect502('invalid_upstream_answers');
    gw.simulator.control.set('verdict', { kind: 'ok' });
    const retry = await postDecision(gw, request);
    expect(retry.status).toBe(200);
    expect(retry.body.answers.map((a: { name: string }) => a.name)).toEqual(['bug', 'team', 'severity']);
  });

  it('keeps a cold start a 503 with Retry-After', async () => {
    gw.simulator.control.set('verdict', { kind: 'cold', retryAfterSeconds: 7 });
    const reply = await postDecision(gw, request);
    expect(reply.status).toBe(503);
    expect(reply.headers.get('retry-after')).toBe('7');
    expect(await billingEventsOf(gw, reply.requestId)).toEqual([]);
  });
});
