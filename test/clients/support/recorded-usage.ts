// What the gateway recorded for a request (UsageMeasured + CostPriced), as the token counts an
// OpenAI-style client should report for it: worked out here from the stored vector on its own
// (audio tokens from the catalog's placeholder), not with the code under test.
import { audioClipTokens } from '../../../src/billing/metering/audio-tokens';
import type { InputUsage, OutputUsage } from '../../../src/billing/usage';
import type { RecordedEvent } from '../../../src/event-store/event-store.port';
import type { TestGateway } from '../../support/test-gateway';

export interface RecordedTokens {
  requestId: string;
  model: string;
  endpoint: string;
  input: number;
  output: number;
  total: number;
  cached: number;
  reasoning: number;
  audioIn: number;
  audioOut: number;
  audioSeconds: number;
  costUsdMicros: number;
  vector: { input: InputUsage; output: OutputUsage };
}

interface Measured {
  requestId: string;
  model: string;
  endpoint: string;
  input: InputUsage;
  output: OutputUsage;
}

function audioTokens(gw: TestGateway, modelId: string, seconds: string, channels: number): number {
  const placeholder = gw.config.models.find((model) => model.id === modelId)?.architecture.audio_placeholder;
  return placeholder && Number(seconds) > 0 ? audioClipTokens(placeholder, seconds, channels) : 0;
}

function tokensOf(gw: TestGateway, measured: Measured, costUsdMicros: number): RecordedTokens {
  const { input, output } = measured;
  const model = gw.config.models.find((entry) => entry.id === measured.model);
  const audioIn = audioTokens(gw, measured.model, input.audio.duration, 1);
  const audioOut = audioTokens(gw, measured.model, output.audio.duration, model?.output_defaults?.channels ?? 1);
  const prompt = input.text.tokens + input.text.cached_tokens + audioIn + input.image.tokens + input.video.tokens;
  const completion = output.text.tokens + output.text.reasoning_tokens + audioOut + output.tools.tokens;
  return {
    requestId: measured.requestId,
    model: measured.model,
    endpoint: measured.endpoint,
    input: prompt,
    output: completion,
    total: prompt + completion,
    cached: input.text.cached_tokens,
    reasoning: output.text.reasoning_tokens,
    audioIn,
    audioOut,
    audioSeconds: Number(input.audio.duration),
    costUsdMicros,
    vector: { input, output },
  };
}

/** Every billed request so far, in the order it was recorded. */
export async function recordedRequests(gw: TestGateway): Promise<RecordedTokens[]> {
  const events = await gw.events();
  const costs = new Map<string, number>();
  for (const event of events) {
    if (event.type === 'CostPriced') costs.set((event.data as { requestId: string }).requestId, (event.data as { costUsdMicros: number }).costUsdMicros);
  }
  return events.filter((event: RecordedEvent) => event.type === 'UsageMeasured').map((event) => {
    const measured = event.data as Measured;
    return tokensOf(gw, measured, costs.get(measured.requestId) ?? Number.NaN);
  });
}

/**
 * Runs one client call and returns what it produced with the one request it billed. Tests in a file
 * run one at a time, so the request recorded during the call is the call's (checked: exactly one).
 */
export async function withRecorded<T>(gw: TestGateway, call: () => Promise<T>): Promise<{ result: T; recorded: RecordedTokens }> {
  const before = (await recordedRequests(gw)).length;
  const result = await call();
  const after = await recordedRequests(gw);
  expect(after.length).toBe(before + 1);
  return { result, recorded: after[after.length - 1] };
}

/** One row of the client x endpoint table (docs/clients.md), printed by each client test file. */
export interface UsageRow {
  client: string;
  endpoint: string;
  reported: string;
  recorded: string;
}

export function printUsageTable(title: string, rows: readonly UsageRow[]): void {
  const lines = rows.map((row) => `| ${row.client} | ${row.endpoint} | ${row.reported} | ${row.recorded} |`);
  console.log([`${title}`, '| client | endpoint | usage as the client reports it | recorded by the gateway |', '|---|---|---|---|', ...lines].join('\n'));
}

export const recordedText = (r: RecordedTokens): string =>
  `prompt ${r.input} (cached ${r.cached}, audio ${r.audioIn}), completion ${r.output} (reasoning ${r.reasoning}, audio ${r.audioOut}), total ${r.total}, ${r.costUsdMicros} micros`;
