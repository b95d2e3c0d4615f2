import { fixtureModel } from '../../../test/support/catalog-model.fixture';
import { ApiError } from '../../common/api-error';
import { scopedCacheSalt } from './cache-salt';
import { rejectUnsupportedParameters, withDefaultParameters } from './generation-parameters';
import { audioOutputRequest } from './output-modalities';
import { estimatePromptTokens } from './prompt-estimate';
import { completionLimit, rejectCompletionOverLimit, rejectExpiredModel, rejectPromptOverLimits, withCompletionCap } from './request-limits';
import { upstreamChatBody } from './upstream-body';

const errorOf = (fn: () => unknown): ApiError => {
  try {
    fn();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected an ApiError');
};

describe('generation parameters', () => {
  const model = fixtureModel({ supported_parameters: ['temperature', 'max_tokens'], default_parameters: { temperature: 0.2, top_p: null } });

  it('refuses a vocabulary parameter the model does not list, naming it', () => {
    const error = errorOf(() => rejectUnsupportedParameters({ model: 'm', top_k: 5 }, model));
    expect(error).toMatchObject({ status: 400, code: 'unsupported_parameter', param: 'top_k' });
  });

  it('lets listed parameters, null values and fields outside the vocabulary through', () => {
    expect(() => rejectUnsupportedParameters({ temperature: 1, top_k: null, max_completion_tokens: 5, user: 'u', store: true }, model)).not.toThrow();
  });

  it('fills absent defaults only, skipping null defaults', () => {
    expect(withDefaultParameters({}, model)).toEqual({ temperature: 0.2 });
    expect(withDefaultParameters({ temperature: 1.5 }, model)).toEqual({ temperature: 1.5 });
  });
});

describe('request limits', () => {
  const model = fixtureModel({
    context_length: 1000,
    top_provider: { is_moderated: false, context_length: 1000, max_completion_tokens: 300 },
    per_request_limits: { prompt_tokens: 800, completion_tokens: 500 },
  });

  it('takes the tighter completion cap and checks max_completion_tokens before max_tokens', () => {
    expect(completionLimit(model)).toBe(300);
    expect(() => rejectCompletionOverLimit({ max_tokens: 300 }, model)).not.toThrow();
    expect(errorOf(() => rejectCompletionOverLimit({ max_completion_tokens: 301, max_tokens: 1 }, model))).toMatchObject({ code: 'completion_tokens_exceeded', param: 'max_completion_tokens' });
  });

  it('adds the cap only when the client sent none', () => {
    expect(withCompletionCap({}, model)).toEqual({ max_tokens: 300 });
    expect(withCompletionCap({ max_completion_tokens: 10 }, model)).toEqual({ max_completion_tokens: 10 });
  });

  it('refuses prompts over the prompt limit and prompt plus completion over the context', () => {
    expect(() => rejectPromptOverLimits(800, {}, model)).not.toThrow();
    expect(errorOf(() => rejectPromptOverLimits(801, {}, model)).code).toBe('prompt_too_long');
    expect(errorOf(() => rejectPromptOverLimits(750, { max_tokens: 251 }, model)).code).toBe('context_length_exceeded');
  });

  it('serves a model through its expiration date and answers 410 the day after', () => {
    const expiring = fixtureModel({ expiration_date: '2026-03-01' });
    expect(() => rejectExpiredModel(expiring, new Date('2026-03-01T23:59:59Z'))).not.toThrow();
    expect(errorOf(() => rejectExpiredModel(expiring, new Date('2026-03-02T00:00:00Z')))).toMatchObject({ status: 410, code: 'model_expired' });
  });

  it('estimates the prompt from template, text bytes and media tokens', () => {
    const templated = fixtureModel({ architecture: { ...model.architecture, chat_template: { per_message: 4, per_request: 3 } } });
    const messages = [{ role: 'user', content: [{ type: 'text', text: 'abcdefgh' }, { type: 'image_url' }] }, { role: 'system', content: 'abc' }];
    expect(estimatePromptTokens(messages, templated, 10)).toBe(3 + 8 + 2 + 1 + 10);
  });
});

describe('output modalities', () => {
  const speaking = fixtureModel({ architecture: { ...fixtureModel().architecture, output_modalities: ['text', 'audio'] }, voices: { presets: ['amber'] } });

  it('returns the audio request when audio output is asked for with voice and format', () => {
    expect(audioOutputRequest({ model: 'm', messages: [], modalities: ['text', 'audio'], audio: { voice: 'amber', format: 'pcm16' } }, speaking)).toEqual({ format: 'pcm16' });
    expect(audioOutputRequest({ model: 'm', messages: [] }, speaking)).toBeNull();
  });

  it('refuses modalities the model does not produce, missing options and unknown preset voices', () => {
    expect(errorOf(() => audioOutputRequest({ model: 'm', messages: [], modalities: ['audio'] }, fixtureModel())).code).toBe('unsupported_modality');
    expect(errorOf(() => audioOutputRequest({ model: 'm', messages: [], modalities: ['audio'] }, speaking)).code).toBe('missing_audio_parameters');
    expect(errorOf(() => audioOutputRequest({ model: 'm', messages: [], modalities: ['audio'], audio: { voice: 'x', format: 'wav' } }, speaking)).code).toBe('unknown_voice');
  });
});

describe('upstream body', () => {
  const model = fixtureModel({ upstream: { ...fixtureModel().upstream, model: 'Qwen/Served' }, default_parameters: { temperature: 0 } });
  const messages = [{ role: 'user', content: 'rewritten' }];

  it('keeps pass-through fields, renames the model, salts per organization and drops stream_options when not streaming', () => {
    const body = upstreamChatBody({ body: { model: 'm', messages: [], user: 'u', stream_options: { include_usage: true } }, model, organizationId: 'org-a', messages });
    expect(body).toMatchObject({ model: 'Qwen/Served', user: 'u', messages, temperature: 0, cache_salt: scopedCacheSalt('org-a', undefined) });
    expect(body).not.toHaveProperty('stream_options');
  });

  it('always asks a stream for usage, whatever the client sent', () => {
    const body = upstreamChatBody({ body: { model: 'm', messages: [], stream: true, stream_options: { include_usage: false } }, model, organizationId: 'org-a', messages });
    expect(body.stream_options).toEqual({ include_usage: true, continuous_usage_stats: true });
  });

  it('speaks the OpenAI dialect to an OpenAI upstream: salt as prompt_cache_key, no vLLM stream extension', () => {
    const openai = { ...model, upstream: { ...model.upstream, dialect: 'openai' as const } };
    const body = upstreamChatBody({ body: { model: 'm', messages: [], stream: true, cache_salt: 'c' }, model: openai, organizationId: 'org-a', messages });
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body).not.toHaveProperty('cache_salt');
    expect(body.prompt_cache_key).toBe(scopedCacheSalt('org-a', 'c'));
  });

  it('derives distinct salts per organization for the same client salt', () => {
    expect(scopedCacheSalt('org-a', 's')).not.toBe(scopedCacheSalt('org-b', 's'));
    expect(scopedCacheSalt('org-a', 's')).toBe(scopedCacheSalt('org-a', 's'));
    expect(scopedCacheSalt('org-a', null)).not.toBe(scopedCacheSalt('org-a', 'null'));
  });

  it('keeps one salt across releases and replicas, so prefixes cached upstream stay shared', () => {
    expect(scopedCacheSalt('org-a', 's')).toBe('EZ2093Jb62SQxxb4EmVYPJjXHup5UjeFsXWAgXlfIeo');
  });
});
