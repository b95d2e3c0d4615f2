import { boundMediaTokens, boundReport, completionCeiling, type DisputedField, PLAUSIBILITY_FACTOR, PROMPT_SLACK_TOKENS, reportedText, settleDroppedCounts } from './plausibility';

// A chat request: the gateway estimated 20 prompt tokens, sent max_tokens 10 with n 2, counted 8
// completion tokens of relayed text; the model's context is 1000 tokens.
const chat = { promptEstimate: 20, completionCap: 10, choices: 2, completionCounted: 8, contextLength: 1000 };
const promptCeiling = 20 * PLAUSIBILITY_FACTOR + PROMPT_SLACK_TOKENS; // 336

describe('plausibility bounds: prompt tokens', () => {
  it('keeps a report within the factor of the gateway estimate, at both edges', () => {
    expect(boundReport({ promptTokens: promptCeiling }, chat)).toEqual({ report: { promptTokens: 336, completionTokens: undefined }, disputes: [] });
    expect(boundReport({ promptTokens: 5 }, chat).disputes).toEqual([]); // floor(20 / 4)
  });

  it('bills the gateway estimate one token past the ceiling and records why', () => {
    const { report, disputes } = boundReport({ promptTokens: promptCeiling + 1 }, chat);
    expect(report.promptTokens).toBe(20);
    expect(disputes).toEqual([{ field: 'prompt_tokens', reported: '337', billed: 20, bound: '<= 336', reason: 'over_prompt_estimate' }]);
  });

  it('bills the gateway estimate one token under the floor (an under-report)', () => {
    const { report, disputes } = boundReport({ promptTokens: 4 }, chat);
    expect(report.promptTokens).toBe(20);
    expect(disputes).toEqual([{ field: 'prompt_tokens', reported: '4', billed: 20, bound: '>= 5', reason: 'under_prompt_estimate' }]);
  });

  it('never bills past the context length, even when the estimate is higher', () => {
    const limits = { promptEstimate: 1200, contextLength: 1000 };
    expect(boundReport({ promptTokens: 1000 }, limits).disputes).toEqual([]);
    const { report, disputes } = boundReport({ promptTokens: 1001 }, limits);
    expect(report.promptTokens).toBe(1000);
    expect(disputes[0]).toMatchObject({ reason: 'over_context_length', bound: '<= 1000', billed: 1000 });
  });

  it('turns 1e15 into the gateway estimate', () => {
    const { report, disputes } = boundReport({ promptTokens: 1e15, completionTokens: 1e15 }, chat);
    expect(report).toMatchObject({ promptTokens: 20, completionTokens: 8 });
    expect(disputes.map((d) => [d.field, d.reported, d.billed, d.reason])).toEqual([
      ['prompt_tokens', '1000000000000000', 20, 'over_prompt_estimate'],
      ['completion_tokens', '1000000000000000', 8, 'over_completion_cap'],
    ]);
  });
});

describe('plausibility bounds: completion tokens', () => {
  it('allows the cap sent times n, and no more', () => {
    expect(boundReport({ promptTokens: 20, completionTokens: 20 }, chat).disputes).toEqual([]);
    const { report, disputes } = boundReport({ promptTokens: 20, completionTokens: 21 }, chat);
    expect(report.completionTokens).toBe(8);
    expect(disputes).toEqual([{ field: 'completion_tokens', reported: '21', billed: 8, bound: '<= 20', reason: 'over_completion_cap' }]);
  });

  it('bills the cap when the relayed text itself is over it (a 50 MB answer reported as 5 tokens)', () => {
    const limits = { ...chat, completionCounted: 13_107_200 };
    const { report, disputes } = boundReport({ promptTokens: 20, completionTokens: 5 }, limits);
    expect(report.completionTokens).toBe(20);
    expect(disputes).toEqual([{ field: 'completion_tokens', reported: '5', billed: 20, bound: '>= 20', reason: 'under_relayed_count' }]);
  });

  it('flags an under-report at the edge of the factor', () => {
    const limits = { promptEstimate: 20, completionCap: 1000, completionCounted: 400 };
    expect(boundReport({ promptTokens: 20, completionTokens: 100 }, limits).disputes).toEqual([]);
    const { report, disputes } = boundReport({ promptTokens: 20, completionTokens: 99 }, limits);
    expect(report.completionTokens).toBe(400);
    expect(disputes[0]).toMatchObject({ reason: 'under_relayed_count', bound: '>= 100', billed: 400 });
  });

  it('without a cap sent, bounds by what the context leaves after the billed prompt, per choice', () => {
    expect(completionCeiling({ contextLength: 1000, choices: 3 }, 400)).toBe(1800);
    expect(completionCeiling({ contextLength: 1000 }, 1000)).toBe(0);
    expect(completionCeiling({}, 10)).toBe(Infinity);
    expect(boundReport({ promptTokens: 400, completionTokens: 601 }, { contextLength: 1000 }).disputes[0]).toMatchObject({ bound: '<= 600' });
  });
});

describe('plausibility bounds: values that are not counts', () => {
  it.each([
    [12.5, '12.5'],
    [-1, '-1'],
    [2 ** 53, '9007199254740992'],
    ['10', '"10"'],
    [{ n: 1 }, '{"n":1}'],
    [true, 'true'],
  ])('disputes %p and bills the gateway count instead', (bad, text) => {
    const { report, disputes } = boundReport({ promptTokens: bad, completionTokens: bad, cachedTokens: bad }, chat);
    expect(report).toEqual({ promptTokens: 20, completionTokens: 8 });
    expect(disputes).toEqual([
      { field: 'prompt_tokens_details.cached_tokens', reported: text, billed: 0, bound: 'whole number 0..9007199254740991', reason: 'not_a_count' },
      { field: 'prompt_tokens', reported: text, billed: 20, bound: 'whole number 0..9007199254740991', reason: 'not_a_count' },
      { field: 'completion_tokens', reported: text, billed: 8, bound: 'whole number 0..9007199254740991', reason: 'not_a_count' },
    ]);
  });

  it('treats missing and null as not reported, not as a dispute', () => {
    expect(boundReport({ promptTokens: null, completionTokens: undefined, reasoningTokens: null }, chat)).toEqual({
      report: { promptTokens: undefined, completionTokens: undefined },
      disputes: [],
    });
  });

  it('without a gateway count, a bad value counts as not reported', () => {
    const { report, disputes } = boundReport({ audioPromptTokens: -3 });
    expect(report).toEqual({ promptTokens: undefined, completionTokens: undefined });
    expect(disputes).toEqual([expect.objectContaining({ field: 'prompt_tokens_details.audio_tokens', reported: '-3', reason: 'not_a_count' })]);
  });

  it('cuts a huge reported string to 100 characters', () => {
    expect(reportedText('x'.repeat(5000))).toHaveLength(101);
    expect(reportedText(Number.POSITIVE_INFINITY)).toBe('Infinity');
  });
});

describe('plausibility bounds: media tokens against the boundary measurement', () => {
  it('keeps an upstream count up to the factor and bills the boundary count past it', () => {
    const disputes: DisputedField[] = [];
    expect(boundMediaTokens('prompt_tokens_details.audio_tokens', 1008, 252, disputes)).toBe(1008);
    expect(disputes).toEqual([]);
    expect(boundMediaTokens('prompt_tokens_details.audio_tokens', 1009, 252, disputes)).toBe(252);
    expect(disputes).toEqual([{ field: 'prompt_tokens_details.audio_tokens', reported: '1009', billed: 252, bound: '<= 1008', reason: 'over_boundary_measurement' }]);
  });

  it('keeps an upstream count down to a quarter of the boundary count and bills the boundary count under it', () => {
    const disputes: DisputedField[] = [];
    expect(boundMediaTokens('prompt_tokens_details.image_tokens', 63, 252, disputes)).toBe(63);
    expect(disputes).toEqual([]);
    expect(boundMediaTokens('prompt_tokens_details.image_tokens', 62, 252, disputes)).toBe(252);
    expect(disputes).toEqual([{ field: 'prompt_tokens_details.image_tokens', reported: '62', billed: 252, bound: '>= 63', reason: 'under_boundary_measurement' }]);
  });

  it('records the count that stood in for a media count that was not a count', () => {
    const { disputes } = boundReport({ audioPromptTokens: 'lots', cachedTokens: -1 });
    settleDroppedCounts(disputes, { 'prompt_tokens_details.audio_tokens': 252 });
    expect(disputes.map((d) => [d.field, d.billed])).toEqual([
      ['prompt_tokens_details.cached_tokens', 0],
      ['prompt_tokens_details.audio_tokens', 252],
    ]);
  });
});
