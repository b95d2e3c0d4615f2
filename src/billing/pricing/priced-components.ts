// Which quantity of the usage vector each price multiplies. Every token sits in exactly one usage
// field (text tokens exclude cached and reasoning tokens), so each is billed once at one rate.
import type { CatalogModel, PricingSide, PricedModality, Price, UnitPrices } from '../../catalog/catalog.types';
import { BigDecimal } from '../../common/big-decimal';
import { audioClipTokens } from '../metering/audio-tokens';
import type { AudioTokens, MeteredUsage } from '../metering/meter';
import type { InputUsage } from '../usage';

/**
 * The usage vector, with meter()'s exact audio token counts when available. Without them (e.g.
 * re-pricing a stored UsageMeasured) each side's audio counts as one clip of its total duration.
 */
export type BillableUsage = Pick<MeteredUsage, 'input' | 'output'> & { audioTokens?: AudioTokens };

export interface PricedComponent {
  side: 'input' | 'output' | 'request';
  modality: string;
  unit: string;
  quantity: number;
  unitPrice: Price | null | undefined;
}

interface SideUnit {
  modality: PricedModality;
  unit: keyof UnitPrices;
  quantity: (usage: InputUsage, audioTokens: number) => number;
}

const SIDE_UNITS: readonly SideUnit[] = [
  { modality: 'text', unit: 'tokens', quantity: (usage) => usage.text.tokens },
  { modality: 'text', unit: 'cached_tokens', quantity: (usage) => usage.text.cached_tokens },
  { modality: 'text', unit: 'characters', quantity: (usage) => usage.text.characters },
  { modality: 'image', unit: 'tokens', quantity: (usage) => usage.image.tokens },
  { modality: 'image', unit: 'count', quantity: (usage) => usage.image.count },
  { modality: 'audio', unit: 'tokens', quantity: (_usage, audioTokens) => audioTokens },
  { modality: 'video', unit: 'tokens', quantity: (usage) => usage.video.tokens },
  { modality: 'voice', unit: 'count', quantity: (usage) => usage.voice.clone_count + usage.voice.design_count },
];

export function pricedComponents(model: CatalogModel, usage: BillableUsage): PricedComponent[] {
  const pricing = model.pricing;
  const audioTokens = usage.audioTokens ?? {
    input: audioTokensOfDuration(model, usage.input.audio.duration, 1),
    output: audioTokensOfDuration(model, usage.output.audio.duration, model.output_defaults?.channels ?? 1),
  };
  return [
    ...sideComponents('input', pricing.input, usage.input, audioTokens.input),
    ...sideComponents('output', pricing.output, usage.output, audioTokens.output),
    {
      side: 'output',
      modality: 'text',
      unit: 'reasoning_tokens',
      quantity: usage.output.text.reasoning_tokens,
      unitPrice: pricing.internal_reasoning ?? pricing.output.text?.tokens,
    },
    {
      side: 'output',
      modality: 'tools',
      unit: 'web_search',
      quantity: usage.output.tools.web_search_calls,
      unitPrice: pricing.web_search,
    },
    { side: 'request', modality: 'request', unit: 'request', quantity: 1, unitPrice: pricing.request },
  ];
}

function sideComponents(
  side: 'input' | 'output',
  prices: PricingSide,
  usage: InputUsage,
  audioTokens: number,
): PricedComponent[] {
  return SIDE_UNITS.map(({ modality, unit, quantity }) => ({
    side,
    modality,
    unit,
    quantity: quantity(usage, audioTokens),
    unitPrice: unitPrice(prices[modality], unit),
  }));
}

function audioTokensOfDuration(model: CatalogModel, duration: string, channels: number): number {
  const placeholder = model.architecture.audio_placeholder;
  if (!placeholder || BigDecimal.parseScientific(duration).isZero()) return 0;
  return audioClipTokens(placeholder, duration, channels);
}

/** Without a cached rate, cached tokens cost the full token rate: never free, never billed twice. */
function unitPrice(prices: UnitPrices | undefined, unit: keyof UnitPrices): Price | null | undefined {
  if (unit === 'cached_tokens') return prices?.cached_tokens ?? prices?.tokens;
  return prices?.[unit];
}
