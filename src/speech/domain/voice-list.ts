// The preset voices a public model id stands for. Presets come from the catalog (operator
// configuration), so adding a voice is a config change; an alias lists its members' union.
import type { CatalogModel } from '../../catalog/catalog.types';

export interface VoiceEntry {
  id: string;
  object: 'voice';
  type: 'preset';
  /** The concrete models that accept this preset (one, unless members of an alias share it). */
  models: string[];
}

/** The spec's VoiceListResponse: an OpenAI-style list plus the (always empty) uploaded voices. */
export interface VoiceList {
  object: 'list';
  model: string;
  data: VoiceEntry[];
  uploaded_voices: [];
}

export const presetsOf = (model: CatalogModel): string[] => model.voices?.presets ?? [];

/** Union of the members' presets in catalog order, each id once, lowercase. */
export function voiceList(publicId: string, members: readonly CatalogModel[]): VoiceList {
  const entries = new Map<string, VoiceEntry>();
  for (const model of members) {
    for (const preset of presetsOf(model)) {
      const id = preset.toLowerCase();
      const entry = entries.get(id) ?? { id, object: 'voice' as const, type: 'preset' as const, models: [] };
      entry.models.push(model.id);
      entries.set(id, entry);
    }
  }
  return { object: 'list', model: publicId, data: [...entries.values()], uploaded_voices: [] };
}
