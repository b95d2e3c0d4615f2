// An alias's listing entry, derived from its members of the embedded catalog (chorus = chorus-voices
// + chorus-clone), and checked against the spec's ListModelEntry schema.
import { CatalogService } from '../../catalog/catalog.service';
import { embeddedConfig } from '../../embedded-default';
import { componentValidator } from '../../openapi/schemas/component-validator';
import { RESPONSE_SCHEMAS } from '../../openapi/schemas';
import { aliasEntry, aliasStatus } from './alias-entry';

const catalog = new CatalogService(embeddedConfig('http://127.0.0.1:1', null).config);
const chorus = catalog.allAliases().find((alias) => alias.id === 'chorus')!;
const [voices, clone] = catalog.membersOf('chorus');

describe('aliasEntry', () => {
  const entry = aliasEntry(chorus, [voices, clone]);

  it('is a model entry of its own that names its members', () => {
    expect(entry).toMatchObject({
      id: 'chorus',
      object: 'model',
      owned_by: 'gateway',
      canonical_slug: 'gateway/chorus',
      alias_of: ['chorus-voices', 'chorus-clone'],
      description: 'Alias of chorus-voices, chorus-clone: each request is served by one of them.',
    });
    expect(componentValidator(RESPONSE_SCHEMAS)('ListModelEntry', entry)).toEqual([]);
  });

  it('says what a request may use: every member modality and parameter, the media profile a member takes', () => {
    expect(entry.architecture).toMatchObject({ input_modalities: ['text', 'audio'], output_modalities: ['audio', 'voice'], modality: 'text+audio->audio+voice' });
    expect(entry.supported_parameters).toEqual([...new Set([...voices.supported_parameters!, ...clone.supported_parameters!])]);
    expect(entry.media_profiles).toEqual({ audio: clone.media_profiles!.audio });
    expect(entry.output_defaults).toEqual(voices.output_defaults);
  });

  it('prices each unit at its highest member price, exactly', () => {
    const cheap = { ...voices, pricing: { input: { text: { characters: '0.000015' } }, output: { audio: { tokens: '0.0000010' } }, request: '0.1' } };
    const dear = { ...clone, pricing: { input: { text: { characters: '0.00002' } }, output: { audio: { tokens: '0.000001' } } } };
    expect(aliasEntry(chorus, [cheap, dear]).pricing).toEqual({
      input: { text: { characters: '0.00002' } },
      output: { audio: { tokens: '0.0000010' } },
      request: '0.1',
    });
    expect(entry.pricing.input.voice).toEqual({ count: '0.002' });
  });
});

describe('aliasStatus', () => {
  it('is warm when a member is, cold when all are, unknown otherwise', () => {
    expect(aliasStatus(['cold', 'warm'])).toBe('warm');
    expect(aliasStatus(['cold', 'cold'])).toBe('cold');
    expect(aliasStatus(['cold', undefined])).toBeUndefined();
    expect(aliasStatus([])).toBeUndefined();
  });
});
