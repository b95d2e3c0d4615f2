import { boundMediaTokens, boundReport, completionCeiling, type DisputedField, disputeSeverity, hasHardDispute, PLAUSIBILITY_FACTOR, PROMPT_SLACK_TOKENS, reportedText, settleDroppedCounts } from './plausibility';

// A chat request: the gateway estimated 20 prompt tokens, sent max_tokens 10 with n 2, counted 8
// completion tokens of relayed text; the model's context is 1000 tokens.
const chat = { promptEstimate: 20, completionCap: 10, choices: 2, completionCounted: 8, contextLength: 1000 };
const promptCeiling = 20 * PLAUSIBILITY_FACTOR + PROMPT_SLACK_TOKENS; // 336

describe('plausibility bounds: prompt tokens', () => {
  it('keeps a report within the factor of the gateway estimate, at both edges, without a dispute', () => {
    expect(boundReport({ promptTokens: promptCeiling }, chat)).toEqual({ report: { promptTokens: 336, completionTokens: undefined }, disputes: [] });
    expect(boundReport({ promptTokens: 5 }, chat).disputes).toEqual([]); // floor(20 / 4)
  });

  it('bills a report one token past the estimate band as sent, disputed soft (finding: 800 reported for an estimate of 81)', () => {
    const { report, disputes } = boundReport({ promptTokens: promptCeiling + 1 }, chat);
    expect(report.promptTokens).toBe(337);
    expect(disputes).toEqual([{ field: 'prompt_tokens', reported: '337', billed: 337, bound: '<= 336', reason: 'over_prompt_estimate', severity: 'soft' }]);
    const hosted = boundReport({ promptTokens: 800, completionTokens: 40 }, { promptEstimate: 81, contextLength: 131_072, completionCap: 4096 });
    expect(hosted.report).toEqual({ promptTokens: 800, completionTokens: 40 });
    expect(hosted.disputes).toEqual([{ field: 'prompt_tokens', reported: '800', billed: 800, bound: '<= 580', reason: 'over_prompt_estimate', severity: 'soft' }]);
  });

  it('bills a report one token under the estimate band as sent, disputed soft', () => {
    const { report, disputes } = boundReport({ promptTokens: 4 }, chat);
    expect(report.promptTokens).toBe(4);
    expect(disputes).toEqual([{ field: 'prompt_tokens', reported: '4', billed: 4, bound: '>= 5', reason: 'under_prompt_estimate', severity: 'soft' }]);
  });

  it('hard: never bills past the context length; at it a far report is only soft', () => {
    expect(boundReport({ promptTokens: 1000 }, chat).disputes).toEqual([
      { field: 'prompt_tokens', reported: '1000', billed: 1000, bound: '<= 336', reason: 'over_prompt_estimate', severity: 'soft' },
    ]);
    const { report, disputes } = boundReport({ promptTokens: 1001 }, chat);
    expect(report.promptTokens).toBe(20);
    expect(disputes).toEqual([{ field: 'prompt_tokens', reported: '1001', billed: 20, bound: '<= 1000', reason: 'over_context_length', severity: 'hard' }]);
  });

  it('hard: past the context length bills the estimate capped at the context', () => {
    const limits = { promptEstimate: 1200, contextLength: 1000 };
    expect(boundReport({ promptTokens: 1000 }, limits).disputes).toEqual([]);
    const { report, disputes } = boundReport({ promptTokens: 1001 }, limits);
    expect(report.promptTokens).toBe(1000);
    expect(disputes[0]).toMatchObject({ reason: 'over_context_length', bound: '<= 1000', billed: 1000, severity: 'hard' });
  });

  it('without a context length, any count is billed; far from the estimate it is disputed soft', () => {
    const { report, disputes } = boundReport({ promptTokens: 1e15 }, { promptEstimate: 20 });
    expect(report.promptTokens).toBe(1e15);
    expect(disputes).toEqual([expect.objectContaining({ reason: 'over_prompt_estimate', severity: 'soft' })]);
  });

  it('turns 1e15 into the gateway counts (past the context and the cap: hard)', () => {
    const { report, disputes } = boundReport({ promptTokens: 1e15, completionTokens: 1e15 }, chat);
    expect(report).toMatchObject({ promptTokens: 20, completionTokens: 8 });
    expect(disputes.map((d) => [d.field, d.reported, d.billed, d.reason, d.severity])).toEqual([
      ['prompt_tokens', '1000000000000000', 20, 'over_context_length', 'hard'],
      ['completion_tokens', '1000000000000000', 8, 'over_completion_cap', 'hard'],
    ]);
  });
});

describe('plausibility bounds: completion tokens', () => {
  it('hard: allows the cap sent times n, and no more', () => {
    expect(boundReport({ promptTokens: 20, completionTokens: 20 }, chat).disputes).toEqual([]);
    const { report, disputes } = boundReport({ promptTokens: 20, completionTokens: 21 }, chat);
    expect(report.completionTokens).toBe(8);
    expect(disputes).toEqual([{ field: 'completion_tokens', reported: '21', billed: 8, bound: '<= 20', reason: 'over_completion_cap', severity: 'hard' }]);
  });

  it('hard: past the cap, bills the own count capped at the cap sent (a 50 MB answer reported past the cap)', () => {
    const limits = { ...chat, completionCounted: 13_107_200 };
    const { report, disputes } = boundReport({ promptTokens: 20, completionTokens: 21 }, limits);
    expect(report.completionTokens).toBe(20);
    expect(disputes[0]).toMatchObject({ billed: 20, bound: '<= 20', severity: 'hard' });
  });

  it('soft: an under-report of the relayed text is billed as sent and disputed for review', () => {
    const limits = { ...chat, completionCounted: 13_107_200 };
    const { report, disputes } = boundReport({ promptTokens: 20, completionTokens: 5 }, limits);
    expect(report.completionTokens).toBe(5);
    expect(disputes).toEqual([{ field: 'completion_tokens', reported: '5', billed: 5, bound: '>= 3276800', reason: 'under_relayed_count', severity: 'soft' }]);
  });

  it('soft: flags an under-report just past the edge of the factor, none at it', () => {
    const limits = { promptEstimate: 20, completionCap: 1000, completionCounted: 400 };
    expect(boundReport({ promptTokens: 20, completionTokens: 100 }, limits).disputes).toEqual([]);
    const { report, disputes } = boundReport({ promptTokens: 20, completionTokens: 99 }, limits);
    expect(report.completionTokens).toBe(99);
    expect(disputes[0]).toMatchObject({ reason: 'under_relayed_count', bound: '>= 100', billed: 99, severity: 'soft' });
  });

  it('has no soft ceiling: emoji far above one token per 4 bytes bill as reported up to the cap', () => {
    expect(boundReport({ promptTokens: 20, completionTokens: 1000 }, { promptEstimate: 20, completionCap: 1000, completionCounted: 10 }).disputes).toEqual([]);
  });

  it('without a cap sent, bounds by what the context leaves after the billed prompt, per choice', () => {
    expect(completionCeiling({ contextLength: 1000, choices: 3 }, 400)).toBe(1800);
    expect(completionCeiling({ contextLength: 1000 }, 1000)).toBe(0);
    expect(completionCeiling({}, 10)).toBe(Infinity);
    expect(boundReport({ promptTokens: 400, completionTokens: 600 }, { contextLength: 1000 }).disputes).toEqual([]);
    expect(boundReport({ promptTokens: 400, completionTokens: 601 }, { contextLength: 1000 }).disputes[0]).toMatchObject({ bound: '<= 600', severity: 'hard' });
  });
});

describe('dispute severity', () => {
  it('reads an entry recorded before the tiers (no severity) as hard', () => {
    expect(disputeSeverity({})).toBe('hard');
    expect(disputeSeverity({ severity: 'soft' })).toBe('soft');
    expect(hasHardDispute([{ severity: 'soft' }, {}])).toBe(true);
    expect(hasHardDispute([{ severity: 'soft' }])).toBe(false);
    expect(hasHardDispute([])).toBe(false);
  });
});

describe('plausibility bounds: values that are not counts', () => {
  it.each([
    [12.5, '12.5'],
    [-1, '-1'],
    [2 ** 53, '9007199254740992'],
    [-0.5, '-0.5'],
    ['10', '"10"'],
    [{ n: 1 }, '{"n":1}'],
    [true, 'true'],
  ])('disputes %p and bills the gateway count instead', (bad, text) => {
    const { report, disputes } = boundReport({ promptTokens: bad, completionTokens: bad, cachedTokens: bad }, chat);
    expect(report).toEqual({ promptTokens: 20, completionTokens: 8 });
    expect(disputes).toEqual([
      { field: 'prompt_tokens_details.cached_tokens', reported: text, billed: 0, bound: 'whole number 0..9007199254740991', reason: 'not_a_count', severity: 'hard' },
      { field: 'prompt_tokens', reported: text, billed: 20, bound: 'whole number 0..9007199254740991', reason: 'not_a_count', severity: 'hard' },
      { field: 'completion_tokens', reported: text, billed: 8, bound: 'whole number 0..9007199254740991', reason: 'not_a_count', severity: 'hard' },
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
  it('hard: keeps an upstream count up to the factor and bills the boundary count past it', () => {
    const disputes: DisputedField[] = [];
    expect(boundMediaTokens('prompt_tokens_details.audio_tokens', 1008, 252, disputes)).toBe(1008);
    expect(disputes).toEqual([]);
    expect(boundMediaTokens('prompt_tokens_details.audio_tokens', 1009, 252, disputes)).toBe(252);
    expect(disputes).toEqual([{ field: 'prompt_tokens_details.audio_tokens', reported: '1009', billed: 252, bound: '<= 1008', reason: 'over_boundary_measurement', severity: 'hard' }]);
  });

  it('soft: keeps an upstream count down to a quarter of the boundary count silently, under it as reported with a soft dispute', () => {
    const disputes: DisputedField[] = [];
    expect(boundMediaTokens('prompt_tokens_details.image_tokens', 63, 252, disputes)).toBe(63);
    expect(disputes).toEqual([]);
    expect(boundMediaTokens('prompt_tokens_details.image_tokens', 62, 252, disputes)).toBe(62);
    expect(disputes).toEqual([{ field: 'prompt_tokens_details.image_tokens', reported: '62', billed: 62, bound: '>= 63', reason: 'under_boundary_measurement', severity: 'soft' }]);
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
