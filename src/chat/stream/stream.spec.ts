import { chatUsageOf } from '../chat-usage';
import { clientChunk, identityOf, isUsageOnlyChunk, trailingChunk } from './client-chunks';
import { StreamTally } from './stream-tally';
import { sseDataOf } from './upstream-events';
import { emptyInputUsage, emptyOutputUsage } from '../../billing/usage';

async function collect(source: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const item of source) out.push(item);
  return out;
}

async function* pieces(...parts: string[]): AsyncGenerator<Buffer> {
  for (const part of parts) yield Buffer.from(part);
}

const LIMIT = { modelId: 'aria', maxEventChars: 64 };

describe('upstream SSE', () => {
  it('yields each event data, across split chunks, CRLF line ends and comments', async () => {
    const events = await collect(sseDataOf(pieces(': keep-alive\r\n\r\ndata: {"a"', ':1}\r\n\r\ndata: [DONE]\n\n'), LIMIT));
    expect(events).toEqual(['{"a":1}', '[DONE]']);
  });

  it('drops an event the upstream never terminated', async () => {
    expect(await collect(sseDataOf(pieces('data: {"a":1}\n\ndata: {"cut'), LIMIT))).toEqual(['{"a":1}']);
  });

  it('decodes multi-byte characters split between network chunks', async () => {
    const bytes = Buffer.from('data: "é"\n\n');
    async function* split() {
      yield bytes.subarray(0, 8);
      yield bytes.subarray(8);
    }
    expect(await collect(sseDataOf(split(), LIMIT))).toEqual(['"é"']);
  });
});

describe('upstream SSE event cap', () => {
  const line = (chars: number) => `data: ${'x'.repeat(chars - 'data: '.length)}`;

  it('passes an event whose line is exactly at the cap', async () => {
    expect(await collect(sseDataOf(pieces(line(64), '\n\n'), LIMIT))).toEqual(['x'.repeat(58)]);
  });

  it('refuses a line one character past the cap: 502 upstream_response_too_large', async () => {
    await expect(collect(sseDataOf(pieces(line(65), '\n\n'), LIMIT))).rejects.toMatchObject({ status: 502, code: 'upstream_response_too_large' });
  });

  it('stops an endless line after the cap, however many chunks follow, with the events before it kept', async () => {
    async function* endless() {
      yield Buffer.from('data: {"a":1}\n\n');
      for (;;) yield Buffer.alloc(16, 'y');
    }
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const data of sseDataOf(endless(), LIMIT)) seen.push(data);
      })(),
    ).rejects.toMatchObject({ code: 'upstream_response_too_large' });
    expect(seen).toEqual(['{"a":1}']);
  });

  it('counts the cap per event, so a long stream of small events is never refused', async () => {
    const many = Array.from({ length: 1000 }, (_, i) => `data: ${i}\n\n`);
    expect(await collect(sseDataOf(pieces(...many), LIMIT))).toHaveLength(1000);
  });
});

describe('client chunks', () => {
  const chunk = { id: 'c1', created: 5, model: 'Qwen/Served', choices: [{ index: 0, delta: { content: 'hi' } }], usage: { prompt_tokens: 3, completion_tokens: 1 } };

  it('relays every field but replaces the model and strips upstream usage', () => {
    expect(clientChunk(chunk, 'aria', false)).toEqual({ id: 'c1', created: 5, model: 'aria', choices: chunk.choices });
    expect(clientChunk(chunk, 'aria', true)).toMatchObject({ model: 'aria', usage: null });
  });

  it('withholds the upstream usage-only chunk', () => {
    const usageOnly = { id: 'c1', choices: [], usage: { prompt_tokens: 3 } };
    expect(isUsageOnlyChunk(usageOnly)).toBe(true);
    expect(clientChunk(usageOnly, 'aria', true)).toBeNull();
  });

  it('builds the final usage chunk with the stream identity', () => {
    const usage = chatUsageOf({ input: emptyInputUsage(), output: emptyOutputUsage(), cost_usd_micros: 7 }, { input: 0, output: 0 });
    const identity = identityOf({ ...chunk, system_fingerprint: 'fp' }, 'aria', new Date(0));
    expect(trailingChunk(identity, { usage })).toEqual({ id: 'c1', created: 5, model: 'aria', system_fingerprint: 'fp', object: 'chat.completion.chunk', choices: [], usage });
  });
});

describe('stream tally', () => {
  it('keeps the latest upstream usage', () => {
    const tally = new StreamTally();
    tally.observe({ choices: [{ delta: { content: 'a' } }], usage: { prompt_tokens: 9, completion_tokens: 1 } });
    tally.observe({ choices: [{ delta: { content: 'b' } }], usage: { prompt_tokens: 9, completion_tokens: 2 } });
    expect(tally.upstreamUsage).toEqual({ prompt_tokens: 9, completion_tokens: 2 });
  });

  it('counts one token per generated delta, logprob entries exactly, and nothing for role-only deltas', () => {
    const tally = new StreamTally();
    tally.observe({ choices: [{ delta: { role: 'assistant', content: '' } }] });
    tally.observe({ choices: [{ delta: { content: 'Hel' } }] });
    tally.observe({ choices: [{ delta: { reasoning_content: 'hmm' } }] });
    tally.observe({ choices: [{ delta: { content: 'lo world' }, logprobs: { content: [{}, {}] } }] });
    tally.observe({ choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '{"a"' } }] } }] });
    expect(tally.countedCompletionTokens).toBe(1 + 1 + 2 + 1);
    expect(tally.upstreamUsage).toBeNull();
  });

  it('collects tool calls, citations and audio per choice', () => {
    const tally = new StreamTally();
    tally.observe({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'a', type: 'function' }, { index: 1, id: 'b', type: 'custom' }] } }] });
    tally.observe({ choices: [{ index: 0, delta: { tool_calls: [{ index: 1, custom: { input: 'x' } }] } }] });
    tally.observe({ choices: [{ index: 1, delta: { annotations: [{ type: 'url_citation' }], audio: { data: Buffer.from([1, 2]).toString('base64') } } }] });
    tally.observe({ choices: [{ index: 1, delta: { audio: { data: Buffer.from([3]).toString('base64') } } }] });
    const [first, second] = tally.messages();
    expect(first.tool_calls).toHaveLength(2);
    expect(second.annotations).toEqual([{ type: 'url_citation' }]);
    expect(tally.audioClips()).toEqual([Buffer.from([1, 2, 3])]);
  });
});
