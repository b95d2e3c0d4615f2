import { chatMeasurement, noInputMedia } from './chat-measurement';
import { tallyTools } from './tool-usage';
import { upstreamReportOf } from './upstream-report';

describe('upstream usage report', () => {
  it('reads OpenAI details and tolerates vLLM nulls', () => {
    expect(upstreamReportOf({ prompt_tokens: 10, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 4, audio_tokens: 2 }, completion_tokens_details: { reasoning_tokens: 1, audio_tokens: null } }))
      .toEqual({ promptTokens: 10, completionTokens: 5, cachedTokens: 4, audioPromptTokens: 2, reasoningTokens: 1, audioCompletionTokens: null });
    expect(upstreamReportOf({ prompt_tokens: 10, completion_tokens: 5, prompt_tokens_details: null })).toMatchObject({ promptTokens: 10, cachedTokens: undefined });
    expect(upstreamReportOf(null)).toBeUndefined();
    expect(upstreamReportOf({ completion_tokens: 3 })).toMatchObject({ promptTokens: undefined, completionTokens: 3 });
  });

  it.each([12.5, -1, 2 ** 53, '10', Number.POSITIVE_INFINITY])('passes %p on as sent: the plausibility bounds dispute it', (bad) => {
    const wire = { prompt_tokens: bad, completion_tokens: bad } as unknown as Parameters<typeof upstreamReportOf>[0];
    expect(upstreamReportOf(wire)).toMatchObject({ promptTokens: bad, completionTokens: bad });
  });
});

describe('tool usage', () => {
  const citing = { annotations: [{ type: 'url_citation' }] };

  it('counts function and custom calls, and one web search per citing choice when search was asked', () => {
    const messages = [{ tool_calls: [{ type: 'function' }, { type: 'custom' }] }, citing, undefined];
    expect(tallyTools(messages, true)).toEqual({ toolCalls: 3, webSearchCalls: 1 });
    expect(tallyTools(messages, false)).toEqual({ toolCalls: 2, webSearchCalls: 0 });
  });
});

describe('chat measurement', () => {
  it('carries the report as sent, the gateway\'s own counts and the limits that bound the report', () => {
    const tools = { toolCalls: 1, webSearchCalls: 0 };
    const fallback = { promptTokens: 7, completionTokens: 3 };
    const limits = { promptEstimate: 7, completionCap: 10, choices: 2, contextLength: 100 };
    const reported = chatMeasurement({ report: { promptTokens: 9 }, media: noInputMedia(), outputAudio: [], tools, fallback, limits, relayedTokens: 5 });
    expect(reported.reported).toEqual({ promptTokens: 9 });
    expect(reported.limits).toEqual({ ...limits, completionCounted: 5 });
    expect(reported.output.toolCalls).toBe(1);
    const unreported = chatMeasurement({ report: undefined, media: noInputMedia(), outputAudio: [], tools, fallback });
    expect(unreported.input.textTokens).toBe(7);
    expect(unreported.output.textTokens).toBe(3);
  });
});
