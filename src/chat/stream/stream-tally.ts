// What a relayed stream amounted to. The upstream's running usage (vLLM continuous usage stats,
// or the final usage chunk) is exact and wins; when the upstream sent none, each relayed delta
// that carried generated text counts one token (vLLM and OpenAI emit one delta per token; with
// logprobs the entries are counted exactly). Tool calls, citations and audio pieces are collected
// per choice so a streamed answer is metered like a complete one (see docs/chat.md).
import type { AssistantMessage, StreamChoice, StreamChunk, StreamDelta, UpstreamUsage } from '../chat.types';

interface ChoiceTally {
  /** Content, refusal and spoken transcript, for output moderation. */
  text: string;
  toolCallIndexes: Set<number>;
  annotations: { type?: string }[];
  audio: Buffer[];
}

export class StreamTally {
  private usage: UpstreamUsage | null = null;
  private pieces = 0;
  private readonly choices = new Map<number, ChoiceTally>();

  observe(chunk: StreamChunk): void {
    // Any reported prompt count is kept, numeric or not: billing's plausibility bounds judge it.
    if (chunk.usage && chunk.usage.prompt_tokens !== undefined && chunk.usage.prompt_tokens !== null) this.usage = chunk.usage;
    for (const choice of chunk.choices ?? []) this.observeChoice(choice);
  }

  /** The latest usage the upstream reported for what was relayed, if any. */
  get upstreamUsage(): UpstreamUsage | null {
    return this.usage;
  }

  /** Generated tokens counted from the relayed deltas (used only without upstream usage). */
  get countedCompletionTokens(): number {
    return this.pieces;
  }

  /**
   * The relayed text's own token estimate for the plausibility bounds: at least one per generated
   * delta, at least one per 4 characters (an upstream may pack a whole answer into one delta).
   */
  get relayedTokenEstimate(): number {
    let characters = 0;
    for (const choice of this.choices.values()) characters += choice.text.length;
    return Math.max(this.pieces, Math.ceil(characters / 4));
  }

  /** Each choice as far as it was relayed, in the shape of a complete answer's message. */
  messages(): AssistantMessage[] {
    return [...this.choices.values()].map((choice) => ({
      tool_calls: [...choice.toolCallIndexes].map((index) => ({ index })),
      annotations: choice.annotations,
    }));
  }

  /** Each choice's generated text as far as it was relayed. */
  texts(): string[] {
    return [...this.choices.values()].map((choice) => choice.text);
  }

  /** The audio bytes each choice streamed, in order. */
  audioClips(): Buffer[] {
    return [...this.choices.values()].filter((choice) => choice.audio.length > 0).map((choice) => Buffer.concat(choice.audio));
  }

  private observeChoice(choice: StreamChoice): void {
    const tally = this.choiceTally(choice.index ?? 0);
    const delta: StreamDelta = choice.delta ?? {};
    const logprobEntries = choice.logprobs?.content?.length;
    this.pieces += logprobEntries ?? (carriesGeneratedText(delta) ? 1 : 0);
    tally.text += [delta.content, delta.refusal, delta.audio?.transcript].filter((t) => typeof t === 'string').join('');
    for (const call of delta.tool_calls ?? []) tally.toolCallIndexes.add(call.index ?? tally.toolCallIndexes.size);
    for (const annotation of delta.annotations ?? []) tally.annotations.push(annotation);
    if (typeof delta.audio?.data === 'string' && delta.audio.data) tally.audio.push(Buffer.from(delta.audio.data, 'base64'));
  }

  private choiceTally(index: number): ChoiceTally {
    let tally = this.choices.get(index);
    if (!tally) {
      tally = { text: '', toolCallIndexes: new Set(), annotations: [], audio: [] };
      this.choices.set(index, tally);
    }
    return tally;
  }
}

function carriesGeneratedText(delta: StreamDelta): boolean {
  const texts = [delta.content, delta.reasoning_content, delta.reasoning, delta.refusal, delta.audio?.transcript];
  const toolArguments = (delta.tool_calls ?? []).some((call) => {
    const fn = call.function as { arguments?: string } | undefined;
    const custom = call.custom as { input?: string } | undefined;
    return Boolean(fn?.arguments || custom?.input);
  });
  return toolArguments || texts.some((text) => typeof text === 'string' && text.length > 0);
}
