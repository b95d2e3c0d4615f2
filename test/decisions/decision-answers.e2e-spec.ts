import { startTestGateway, TestGateway } from '../support/test-gateway';
import { billingEventsOf, choice, postDecision, predicate, score, withDistribution } from './decision-client';

describe('POST /v1/decisions: answers, refusals, usage and billing', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  const ask = (questions: unknown[], input: unknown = 'Ticket: I was charged twice for my subscription.') =>
    postDecision(gw, { model: 'verdict', input, questions });

  it('derives choice, score and confidence from known distributions', async () => {
    const reply = await ask([
      predicate(withDistribution('Does the customer report a double charge?', [0.8]), 'double_charge'),
      choice(withDistribution('Which queue?', [0.1, 0.6, 0.3]), ['billing', true, 'true'], 'queue'),
      { type: 'score', instructions: withDistribution('How urgent?', [0.5, 0.3, 0.2]), levels: [{ label: 'low' }, { label: 'mid', value: 5 }, { label: 'high', value: 10 }] },
      score(withDistribution('How angry?', [0.1, 0.2, 0.3, 0.4]), ['calm', 'annoyed', 'upset', 'furious'], 'anger'),
    ]);
    expect(reply.status).toBe(200);
    expect(reply.body.model).toBe('verdict');
    expect(reply.body.answers).toEqual([
      { type: 'predicate', name: 'double_charge', probability: 0.8 },
      {
        type: 'choice',
        name: 'queue',
        choice: true,
        probabilities: [{ value: 'billing', probability: 0.1 }, { value: true, probability: 0.6 }, { value: 'true', probability: 0.3 }],
        confidence: 0.4,
      },
      {
        type: 'score',
        name: null,
        score: 3.5,
        probabilities: [{ value: 0, label: 'low', probability: 0.5 }, { value: 5, label: 'mid', probability: 0.3 }, { value: 10, label: 'high', probability: 0.2 }],
        confidence: 0.25,
      },
      {
        type: 'score',
        name: 'anger',
        score: 2,
        probabilities: [
          { value: 0, label: 'calm', probability: 0.1 }, { value: 1, label: 'annoyed', probability: 0.2 },
          { value: 2, label: 'upset', probability: 0.3 }, { value: 3, label: 'furious', probability: 0.4 },
        ],
        confidence: 0.2,
      },
    ]);
  });

  it('picks the first listed option on a tie and reports zero confidence for a uniform distribution', async () => {
    const reply = await ask([choice(withDistribution('Which?', [0.25, 0.25, 0.25, 0.25]), ['a', 'b', 'c', 'd'])]);
    expect(reply.body.answers[0]).toMatchObject({ choice: 'a', confidence: 0 });
  });

  it('forwards the questions in the Decisions wire format: upstream model name, no level values, no stream', async () => {
    gw.simulator.control.reset();
    const reply = await postDecision(gw, {
      model: 'verdict',
      input: 'x',
      stream: false,
      safety_identifier: 'end-user-7',
      questions: [{ type: 'score', instructions: 'How much?', levels: [{ label: 'none', description: 'nothing' }, { label: 'lots', value: 9 }] }],
    });
    expect(reply.status).toBe(200);
    const [forwarded] = gw.simulator.control.received((r) => r.path === '/v1/decisions');
    expect(forwarded.body).toEqual({
      model: 'verdict',
      input: 'x',
      safety_identifier: 'end-user-7',
      questions: [{ type: 'score', instructions: 'How much?', levels: [{ label: 'none', description: 'nothing' }, { label: 'lots' }] }],
    });
  });

  it('passes refusals through in place of the refused answers', async () => {
    const reply = await ask([predicate('Fine?', 'fine'), choice('[sim:refuse] Which?', ['a', 'b'], 'which'), score('[sim:refuse] How?', ['x', 'y'])]);
    expect(reply.status).toBe(200);
    expect(reply.body.answers[0]).toMatchObject({ type: 'predicate', name: 'fine' });
    expect(reply.body.answers.slice(1)).toEqual([{ type: 'refusal', name: 'which' }, { type: 'refusal', name: null }]);
    expect(await billingEventsOf(gw, reply.requestId)).toHaveLength(2);
  });

  it('accepts a model that refuses every question', async () => {
    gw.simulator.control.set('verdict', { kind: 'quirk', name: 'refuse_all' });
    try {
      const reply = await ask([predicate('A?', 'a'), choice('B?', ['x', 'y'])]);
      expect(reply.status).toBe(200);
      expect(reply.body.answers).toEqual([{ type: 'refusal', name: 'a' }, { type: 'refusal', name: null }]);
    } finally {
      gw.simulator.control.set('verdict', { kind: 'ok' });
    }
  });

  it('reports token usage for text evidence and bills the same numbers', async () => {
    const reply = await ask([predicate('Is it spam?'), choice('Which?', ['a', 'b'])]);
    const usage = reply.body.usage;
    expect(usage).toEqual({
      input_tokens: expect.any(Number),
      input_tokens_details: { multimodal_tokens: null },
      output_tokens: 2,
      total_tokens: usage.input_tokens + 2,
    });
    expect(usage.input_tokens).toBeGreaterThan(0);
    const events = await billingEventsOf(gw, reply.requestId);
    expect(events.map((e) => e.type)).toEqual(['UsageMeasured', 'CostPriced']);
    const measured = events[0].data as { endpoint: string; model: string; input: { text: { tokens: number } }; output: { text: { tokens: number } } };
    expect(measured).toMatchObject({ endpoint: '/v1/decisions', model: 'verdict' });
    expect(measured.input.text.tokens).toBe(usage.input_tokens);
    expect(measured.output.text.tokens).toBe(2);
    // verdict: 0.0000003 USD an input token, 0.0000012 an output token; one half-up rounding to micros.
    const expectedMicros = Math.round(usage.input_tokens * 0.3 + 2 * 1.2);
    expect((events[1].data as { costUsdMicros: number }).costUsdMicros).toBe(expectedMicros);
  });
});
