// The simulated decision model: deterministic distributions per question and token counts the way
// a Qwen2-VL-style model would count them. Directives in a question's instructions let tests pick
// the outcome: `[sim:probabilities=0.1,0.2,0.7]` sets the distribution, `[sim:refuse]` refuses.
import { createHash } from 'node:crypto';
import { audioClipTokens } from '../billing/metering/audio-tokens';
import { visualTokens } from '../billing/metering/smart-resize';
import { identifyAudio, readImageHeader } from '../media';

export interface SimQuestion {
  type?: string;
  instructions?: string;
  name?: string | null;
  choices?: { value: unknown; description?: string }[];
  levels?: { label: string; description?: string }[];
}

type Part = { type?: string; text?: string; image_url?: string };
export type SimInput = string | { role?: string; content?: string | Part[] }[];

/** The visual placeholder of the example catalog's `verdict` (Qwen2-VL defaults). */
const VISION = { factor: 28, image_min_pixels: 3136, image_max_pixels: 1003520 };
/** A web image is not fetched here; the model is taken to spend this many tokens on it. */
export const WEB_IMAGE_TOKENS = 256;
const CHARACTERS_PER_TOKEN = 4;
/** The audio placeholder of `verdict`: 2 tokens a clip plus 25 a second, rounded up. */
const AUDIO = { per_clip: 2, tokens_per_second: 25 };

const DIRECTIVE = /\[sim:probabilities=([0-9.,\s]+)\]/;

export function simulatedAnswer(question: SimQuestion): Record<string, unknown> {
  const name = question.name ?? null;
  const instructions = question.instructions ?? '';
  if (instructions.includes('[sim:refuse]')) return { type: 'refusal', name };
  const optionCount = question.type === 'choice' ? (question.choices ?? []).length : (question.levels ?? []).length;
  const probabilities = requestedDistribution(instructions) ?? defaultDistribution(question.type, instructions, optionCount);
  if (question.type === 'choice') {
    const choices = question.choices ?? [];
    const entries = choices.map((choice, index) => ({ value: choice.value, probability: probabilities[index] }));
    return { type: 'choice', name, choice: choices[argmax(probabilities)]?.value, probabilities: entries, confidence: Math.max(...probabilities) };
  }
  if (question.type === 'score') {
    const entries = (question.levels ?? []).map((level, index) => ({ value: index, label: level.label, probability: probabilities[index] }));
    const score = probabilities.reduce((sum, p, index) => sum + p * index, 0);
    return { type: 'score', name, score, probabilities: entries, confidence: Math.max(...probabilities) };
  }
  return { type: 'predicate', name, probability: probabilities[0] };
}

function requestedDistribution(instructions: string): number[] | null {
  const match = DIRECTIVE.exec(instructions);
  return match ? match[1].split(',').map((text) => Number(text.trim())) : null;
}

/** Predicates: a probability from the instructions' hash. Choices and levels: p_i = 2(i+1) / k(k+1). */
function defaultDistribution(type: string | undefined, instructions: string, count: number): number[] {
  if (type !== 'choice' && type !== 'score') {
    const hash = createHash('sha256').update(instructions).digest().readUInt32BE(0);
    return [((hash % 89) + 10) / 100];
  }
  return Array.from({ length: count }, (_, index) => (2 * (index + 1)) / (count * (count + 1)));
}

const argmax = (values: number[]) => values.reduce((best, value, index) => (value > values[best] ? index : best), 0);

export async function simulatedInputTokens(input: SimInput, questions: SimQuestion[], audio?: { data?: string }): Promise<number> {
  const parts = typeof input === 'string' ? [{ type: 'input_text', text: input }] : input.flatMap(messageParts);
  const texts = [...parts.map((part) => part.text ?? ''), ...questions.flatMap(questionTexts)];
  const textTokens = Math.ceil(texts.join('\n').length / CHARACTERS_PER_TOKEN);
  const imageTokens = parts.filter((part) => part.type === 'input_image').reduce((sum, part) => sum + imageTokensOf(part.image_url ?? ''), 0);
  return textTokens + imageTokens + (audio?.data ? await audioTokensOf(audio.data) : 0);
}

function messageParts(message: { content?: string | Part[] }): Part[] {
  return typeof message.content === 'string' ? [{ type: 'input_text', text: message.content }] : (message.content ?? []);
}

function questionTexts(question: SimQuestion): string[] {
  const options = [...(question.choices ?? []).map((c) => `${String(c.value)} ${c.description ?? ''}`), ...(question.levels ?? []).map((l) => `${l.label} ${l.description ?? ''}`)];
  return [question.instructions ?? '', ...options];
}

function imageTokensOf(url: string): number {
  if (!url.startsWith('data:')) return WEB_IMAGE_TOKENS;
  const header = readImageHeader(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'));
  return header ? visualTokens(header.height, header.width, VISION) : 0;
}

async function audioTokensOf(base64: string): Promise<number> {
  const probe = await identifyAudio(Buffer.from(base64, 'base64'));
  return audioClipTokens(AUDIO, probe.durationSeconds);
}
