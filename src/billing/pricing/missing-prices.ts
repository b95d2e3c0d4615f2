// Start-up check that every usage component a model can produce has a price, so a served request
// is never left uncosted because the price book has a hole. A price of 0 is a price.
import type { CatalogModel, Price, PricingMetadata, PricingSide } from '../../catalog/catalog.types';
import { BigDecimal } from '../../common/big-decimal';
import { toDecimalText } from '../../common/decimal-text';
import { requiredPrices } from './required-prices';

/**
 * Problems with a model's price book, one message per problem (empty when it is complete):
 * the path of each missing price (`pricing.output.audio.tokens`), malformed or negative prices,
 * a discount outside [0, 1], and token prices that no placeholder can derive tokens for.
 */
export function missingPrices(model: CatalogModel): string[] {
  const pricing = model.pricing;
  return [
    ...requiredPrices(model)
      .filter((alternatives) => alternatives.every((path) => priceAt(pricing, path) == null))
      .map((alternatives) => alternatives.join(' or ')),
    ...malformedPrices(pricing),
    ...discountProblems(pricing.discount),
    ...placeholderProblems(model),
  ];
}

function priceAt(pricing: PricingMetadata, path: string): Price | null | undefined {
  const [, first, modality, unit] = path.split('.');
  if (first === 'input' || first === 'output') {
    const side: PricingSide = pricing[first];
    return side[modality as keyof PricingSide]?.[unit as 'tokens'];
  }
  return pricing[first as 'request' | 'web_search' | 'internal_reasoning'];
}

function allPricePaths(pricing: PricingMetadata): Array<[string, Price | null | undefined]> {
  const sides = (['input', 'output'] as const).flatMap((side) =>
    Object.entries(pricing[side]).flatMap(([modality, units]) =>
      Object.entries(units ?? {}).map(([unit, value]): [string, Price | null | undefined] => [
        `pricing.${side}.${modality}.${unit}`,
        value,
      ]),
    ),
  );
  const extras = (['request', 'web_search', 'internal_reasoning'] as const).map(
    (key): [string, Price | null | undefined] => [`pricing.${key}`, pricing[key]],
  );
  return [...sides, ...extras];
}

function malformedPrices(pricing: PricingMetadata): string[] {
  return allPricePaths(pricing).flatMap(([path, value]) => {
    if (value == null) return [];
    try {
      return BigDecimal.parse(toDecimalText(value)).isNegative() ? [`${path}: negative price`] : [];
    } catch (error) {
      return [`${path}: ${(error as Error).message}`];
    }
  });
}

/** A price that parses and is not zero; malformed prices are reported by malformedPrices. */
function isNonZero(value: Price | null | undefined): boolean {
  if (value == null) return false;
  try {
    return !BigDecimal.parse(toDecimalText(value)).isZero();
  } catch {
    return false;
  }
}

function discountProblems(discount: number | null | undefined): string[] {
  if (discount == null) return [];
  return Number.isFinite(discount) && discount >= 0 && discount <= 1 ? [] : ['pricing.discount: not between 0 and 1'];
}

function placeholderProblems(model: CatalogModel): string[] {
  const { pricing, architecture } = model;
  const charges = (path: string) => isNonZero(priceAt(pricing, path));
  const problems: string[] = [];
  for (const side of ['input', 'output']) {
    if (!architecture.audio_placeholder && charges(`pricing.${side}.audio.tokens`)) {
      problems.push(`pricing.${side}.audio.tokens: audio priced without architecture.audio_placeholder`);
    }
    for (const modality of ['image', 'video']) {
      if (!architecture.visual_placeholder && charges(`pricing.${side}.${modality}.tokens`)) {
        problems.push(`pricing.${side}.${modality}.tokens: ${modality} tokens priced without architecture.visual_placeholder`);
      }
    }
  }
  return problems;
}
