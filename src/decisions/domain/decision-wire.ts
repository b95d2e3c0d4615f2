// The body sent to the decision model (OpenAI Decisions API wire format, plus the gateway's
// input_audio extension). Unknown client fields pass through; level values stay at the gateway,
// which alone computes scores from them, and converted media replaces what the client sent.
import type { DecisionQuestion } from './decision.types';

export interface DecisionRequestFields {
  model: string;
  input: unknown;
  questions: DecisionQuestion[];
  input_audio?: unknown;
  stream?: unknown;
}

export interface WireMedia {
  /** Images sent with another URL than the client's: converted data: URLs, normalized web URLs. */
  convertedImages: { message: number; part: number; url: string }[];
  forwardedAudio?: { data: string; format: string };
}

export function decisionWireBody(request: DecisionRequestFields, upstreamModel: string, media: WireMedia): Record<string, unknown> {
  const { model, stream, input_audio, questions, input, ...passThrough } = request;
  return {
    ...passThrough,
    model: upstreamModel,
    input: withConvertedImages(input, media.convertedImages),
    questions: questions.map(wireQuestion),
    ...(media.forwardedAudio ? { input_audio: media.forwardedAudio } : {}),
  };
}

function wireQuestion(question: DecisionQuestion): DecisionQuestion {
  if (question.type !== 'score') return question;
  return { ...question, levels: question.levels.map(({ value, ...level }) => level) };
}

type Message = { content: unknown };

function withConvertedImages(input: unknown, converted: WireMedia['convertedImages']): unknown {
  if (converted.length === 0 || !Array.isArray(input)) return input;
  const messages = structuredClone(input) as Message[];
  for (const { message, part, url } of converted) {
    const parts = messages[message].content as Record<string, unknown>[];
    parts[part] = { ...parts[part], image_url: url };
  }
  return messages;
}
