import { emptyInputUsage, emptyOutputUsage } from '../../billing/usage';
import { operationOf, providerOf, requestAttributes, usageAttributes } from './genai-attributes';

describe('operationOf', () => {
  it('names chat by the conventions and the other capabilities by the gateway, for routes and upstream paths alike', () => {
    expect(operationOf('/v1/chat/completions')).toBe('chat');
    expect(operationOf('/chat/completions')).toBe('chat');
    expect(operationOf('/v1/audio/transcriptions')).toBe('transcription');
    expect(operationOf('/audio/speech')).toBe('speech');
    expect(operationOf('/v1/images/generations')).toBe('image');
    expect(operationOf('/decisions')).toBe('decision');
  });

  it('has none for routes that call no model', () => {
    expect(operationOf('/v1/models')).toBeUndefined();
    expect(operationOf('/healthz')).toBeUndefined();
    expect(operationOf(undefined)).toBeUndefined();
  });
});

describe('providerOf', () => {
  it("is the conventions' `openai` for an OpenAI upstream and `vllm` for the default dialect", () => {
    expect(providerOf('openai')).toBe('openai');
    expect(providerOf('vllm')).toBe('vllm');
    expect(providerOf(undefined)).toBe('vllm');
  });
});

describe('requestAttributes', () => {
  it('takes the model and the numeric parameters the conventions name', () => {
    expect(requestAttributes({ model: 'aria', max_tokens: 16, temperature: 0, top_p: 0.9, seed: 7, stream: true, messages: [] })).toEqual({
      'gen_ai.request.model': 'aria',
      'gen_ai.request.max_tokens': 16,
      'gen_ai.request.temperature': 0,
      'gen_ai.request.top_p': 0.9,
      'gen_ai.request.seed': 7,
      'gen_ai.request.stream': true,
    });
  });

  it('ignores what is absent or not of the expected type', () => {
    expect(requestAttributes({ model: 42, temperature: '0.5', max_tokens: null })).toEqual({});
  });
});

describe('usageAttributes', () => {
  it('sums the token counts of every modality that has them, and gives the cost as a string', () => {
    const input = emptyInputUsage();
    input.text.tokens = 10;
    input.text.cached_tokens = 4;
    input.image.tokens = 100;
    input.audio.duration = '2.5';
    const output = emptyOutputUsage();
    output.text.tokens = 7;
    output.text.reasoning_tokens = 3;
    expect(usageAttributes({ input, output, cost_usd_micros: 9_007_199_254_740_991 })).toEqual({
      'gen_ai.usage.input_tokens': 110,
      'gen_ai.usage.output_tokens': 7,
      'gen_ai.usage.cache_read.input_tokens': 4,
      'gen_ai.usage.reasoning.output_tokens': 3,
      'gateway.usage.input_audio_seconds': '2.5',
      'gateway.usage.output_audio_seconds': '0',
      'gateway.cost_usd_micros': '9007199254740991',
    });
  });

  it('leaves the cost out of an uncharged request', () => {
    expect(usageAttributes({ input: emptyInputUsage(), output: emptyOutputUsage(), cost_usd_micros: null })).not.toHaveProperty('gateway.cost_usd_micros');
  });
});
