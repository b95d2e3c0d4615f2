// The most a transcription can be charged, for its budget hold (docs/keys-and-budgets.md), from
// billing's metering and pricing.
import type { CatalogModel } from '../catalog/catalog.types';
import type { MeasuredAudio } from '../billing/metering/measurement';
import { meter } from '../billing/metering/meter';
import { PLAUSIBILITY_FACTOR } from '../billing/metering/plausibility';
import { price } from '../billing/pricing/price';

/**
 * Transcription is billed on the gateway's own measurement of the upload; under `backend` metering an
 * upstream audio count up to 4x the boundary count is billed instead (docs/metering.md). Null when the
 * model takes the upstream's count with no placeholder to bound it.
 */
export function maxTranscriptionCostMicros(model: CatalogModel, audio: MeasuredAudio[]): bigint | null {
  const boundary = meter(model, { input: { audio }, output: {} });
  const backend = model.media_profiles?.audio?.metering === 'backend';
  if (!backend) return BigInt(price(model, boundary).costUsdMicros);
  if (!model.architecture.audio_placeholder) return null;
  const reported = { audioPromptTokens: boundary.audioTokens.input * PLAUSIBILITY_FACTOR };
  const worst = meter(model, { upstream: reported, input: { audio }, output: {} }, []);
  return BigInt(Math.max(price(model, boundary).costUsdMicros, price(model, worst).costUsdMicros));
}
