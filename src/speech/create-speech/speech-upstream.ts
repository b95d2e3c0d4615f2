// Calls the speech upstream for a planned request: once, or for a long input once per segment in
// order, joined into one stream. The first call is awaited here, so an upstream refusal becomes
// the client's error before any audio is sent. It counts the input characters of the segments the
// upstream accepted, because a stream that ends early is billed only for those (docs/speech.md).
import { requireAudio } from '../../upstream/answer-content-type';
import type { UpstreamClient } from '../../upstream/upstream.client';
import type { RoutedCaller } from '../../routing/router';
import { inputSegments } from '../domain/input-segments';
import { characterCount } from '../domain/speech-measurement';
import { joinSegments, type SegmentFormat } from '../domain/joined-audio';
import type { SpeechPlan } from '../domain/speech-plan';

export interface UpstreamAudio {
  body: AsyncIterable<Buffer>;
  /** The format segments were joined in, or null when one request produced the audio. */
  joined: SegmentFormat | null;
  /** Input characters of the segments sent so far (their request answered); all of them once the body is read. */
  sentCharacters(): number;
}

export async function openSpeechUpstream(
  client: UpstreamClient,
  plan: SpeechPlan,
  json: Record<string, unknown>,
  input: string,
  signal: AbortSignal,
  /** The client's request, whose upstream attempts are recorded (docs/routing.md). */
  ctx?: RoutedCaller,
): Promise<UpstreamAudio> {
  let sent = 0;
  const sentCharacters = () => sent;
  const send = async (body: Record<string, unknown>, text: string) => {
    const response = await client.send(plan.model, { path: '/audio/speech', json: body, signal, ctx });
    requireAudio(response, plan.model); // an HTML or JSON 200 is a failure, never relayed as audio
    sent += characterCount(text);
    return response.body;
  };
  const segments = inputSegments(input, plan.model.upstream.max_input_characters);
  if (segments.length === 1) return { body: await send(json, input), joined: null, sentCharacters };
  // Segments always stream raw PCM or WAV, the formats that can be joined without re-encoding.
  const format: SegmentFormat = plan.format === 'pcm' ? 'pcm' : 'wav';
  const segmentBody = (text: string) => ({ ...json, input: text, response_format: format, stream_format: 'audio' });
  const first = await send(segmentBody(segments[0]), segments[0]);
  async function* inOrder(): AsyncGenerator<AsyncIterable<Buffer>> {
    yield first;
    for (const segment of segments.slice(1)) yield await send(segmentBody(segment), segment);
  }
  return { body: joinSegments(inOrder(), format), joined: format, sentCharacters };
}
