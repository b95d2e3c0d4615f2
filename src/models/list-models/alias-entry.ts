// The listing entry of an alias (e.g. `chorus`): a model id clients may send, served by one of its
// members per request. It has the spec's ListModelEntry fields plus `alias_of` naming the members.
// A field the operator declared on the alias is listed as declared; any other is derived from the
// members so that it says what a request to the alias may use and cost (docs/models.md).
import {
  ALIAS_LISTING_FIELDS,
  type ArchitectureMetadata, type CatalogModel, type ListModelEntry, type MediaProfiles, type ModelAlias, type PricingMetadata, type PricingSide, type UnitPrices,
} from '../../catalog/catalog.types';
import { BigDecimal } from '../../common/big-decimal';

export interface AliasListEntry extends ListModelEntry {
  /** The member models, in the order the operator listed them. */
  alias_of: string[];
}

const unique = <T>(values: T[]): T[] => [...new Set(values)];

/** The one value every member agrees on, else undefined. */
function shared<T>(values: T[]): T | undefined {
  const distinct = unique(values.map((value) => JSON.stringify(value ?? null)));
  return distinct.length === 1 ? values[0] : undefined;
}

const largest = (values: (number | null | undefined)[]): number | null => {
  const known = values.filter((value): value is number => typeof value === 'number');
  return known.length > 0 ? Math.max(...known) : null;
};

/** The highest of the members' prices (decimal texts), or undefined when none sets one. */
function highestPrice(prices: (string | null | undefined)[]): string | undefined {
  const known = prices.filter((price): price is string => typeof price === 'string');
  if (known.length === 0) return undefined;
  return known.reduce((high, price) => (BigDecimal.parse(price).compare(BigDecimal.parse(high)) > 0 ? price : high));
}

function highestSide(sides: PricingSide[]): PricingSide {
  const side: PricingSide = {};
  for (const modality of unique(sides.flatMap((s) => Object.keys(s))) as (keyof PricingSide)[]) {
    const units: UnitPrices = {};
    for (const unit of unique(sides.flatMap((s) => Object.keys(s[modality] ?? {}))) as (keyof UnitPrices)[]) {
      const price = highestPrice(sides.map((s) => s[modality]?.[unit]));
      if (price !== undefined) units[unit] = price;
    }
    side[modality] = units;
  }
  return side;
}

/** Each unit at the highest price among the members: what one request may cost at most per unit. */
function highestPricing(members: PricingMetadata[]): PricingMetadata {
  const pricing: PricingMetadata = { input: highestSide(members.map((m) => m.input)), output: highestSide(members.map((m) => m.output)) };
  for (const key of ['request', 'web_search', 'internal_reasoning'] as const) {
    const price = highestPrice(members.map((m) => m[key]));
    if (price !== undefined) pricing[key] = price;
  }
  return pricing;
}

function architectureOf(members: CatalogModel[]): ArchitectureMetadata {
  const inputs = unique(members.flatMap((m) => m.architecture.input_modalities));
  const outputs = unique(members.flatMap((m) => m.architecture.output_modalities));
  const architecture: ArchitectureMetadata = { modality: `${inputs.join('+')}->${outputs.join('+')}`, input_modalities: inputs, output_modalities: outputs };
  const tokenizer = shared(members.map((m) => m.architecture.tokenizer));
  if (tokenizer) architecture.tokenizer = tokenizer;
  const instructType = shared(members.map((m) => m.architecture.instruct_type));
  if (instructType) architecture.instruct_type = instructType;
  // A placeholder or template every member shares is the alias's too: its tokens derive the same way whichever serves.
  for (const key of ['chat_template', 'audio_placeholder', 'visual_placeholder'] as const) {
    const value = shared(members.map((m) => m.architecture[key]));
    if (value) Object.assign(architecture, { [key]: value });
  }
  return architecture;
}

/** Per media kind, the first member's profile that takes it: a request with that media goes there. */
function mediaProfilesOf(members: CatalogModel[]): MediaProfiles | undefined {
  const profiles: MediaProfiles = {};
  for (const kind of ['audio', 'image', 'video'] as const) {
    const profile = members.find((m) => m.media_profiles?.[kind])?.media_profiles?.[kind];
    if (profile) Object.assign(profiles, { [kind]: profile });
  }
  return Object.keys(profiles).length > 0 ? profiles : undefined;
}

export function aliasEntry(alias: ModelAlias, members: CatalogModel[]): AliasListEntry {
  const ownedBy = shared(members.map((m) => m.owned_by)) ?? 'gateway';
  const entry: AliasListEntry = {
    id: alias.id,
    object: 'model',
    created: Math.min(...members.map((m) => m.created)),
    owned_by: ownedBy,
    canonical_slug: `${ownedBy}/${alias.id}`.toLowerCase(),
    name: alias.id,
    description: `Alias of ${alias.members.join(', ')}: each request is served by one of them.`,
    context_length: largest(members.map((m) => m.context_length)),
    architecture: architectureOf(members),
    pricing: highestPricing(members.map((m) => m.pricing)),
    top_provider: {
      is_moderated: members.some((m) => m.top_provider.is_moderated),
      context_length: largest(members.map((m) => m.top_provider.context_length)),
      max_completion_tokens: largest(members.map((m) => m.top_provider.max_completion_tokens)),
    },
    default_parameters: shared(members.map((m) => m.default_parameters)) ?? {},
    supported_parameters: unique(members.flatMap((m) => m.supported_parameters ?? [])),
    alias_of: [...alias.members],
  };
  const outputDefaults = shared(members.map((m) => m.output_defaults));
  if (outputDefaults) entry.output_defaults = outputDefaults;
  const mediaProfiles = mediaProfilesOf(members);
  if (mediaProfiles) entry.media_profiles = mediaProfiles;
  return withDeclaredFields(entry, alias);
}

/** Each listing field the alias declares replaces the derived one whole (no merge: what is configured is listed). */
function withDeclaredFields(entry: AliasListEntry, alias: ModelAlias): AliasListEntry {
  const declared: Record<string, unknown> = {};
  for (const field of ALIAS_LISTING_FIELDS) {
    if (alias[field] !== undefined) declared[field] = alias[field];
  }
  // The derived slug follows the owner listed, declared or not.
  if (alias.owned_by !== undefined && alias.canonical_slug === undefined) declared.canonical_slug = `${alias.owned_by}/${alias.id}`.toLowerCase();
  return { ...entry, ...declared };
}

/** An alias is warm when a member is, cold when every member is; unknown otherwise. */
export function aliasStatus(statuses: ('warm' | 'cold' | undefined)[]): 'warm' | 'cold' | undefined {
  if (statuses.includes('warm')) return 'warm';
  return statuses.length > 0 && statuses.every((status) => status === 'cold') ? 'cold' : undefined;
}
