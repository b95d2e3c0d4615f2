// The most a speech request can be charged, for its budget hold (docs/keys-and-budgets.md), from
// billing's metering and pricing.
import type { CatalogModel } from '../../catalog/catalog.types';
import { meter } from '../../billing/metering/meter';
import { maxSpeechSeconds } from '../../billing/metering/output-bounds';
import { price } from '../../billing/pricing/price';
import { characterCount, speechMeasurement, type SpeechWork } from './speech-measurement';

/** Speech: its input, voice work and reference as they will be billed, and output audio at its bound. */
export function maxSpeechCostMicros(model: CatalogModel, work: Omit<SpeechWork, 'outputSeconds' | 'sentCharacters'>, speed: number): bigint {
  const outputSeconds = maxSpeechSeconds(characterCount(work.input), speed);
  return BigInt(price(model, meter(model, speechMeasurement({ ...work, outputSeconds }))).costUsdMicros);
}
