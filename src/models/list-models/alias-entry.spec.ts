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

  it('is a model entry of its own that names its members, listing the fields the alias declares as declared', () => {
    expect(entry).toMatchObject({
      id: 'chorus',
      object: 'model',
      owned_by: 'gateway',
      canonical_slug: 'gateway/chorus',
      alias_of: ['chorus-voices', 'chorus-clone'],
      name: 'Chorus',
      description: 'Text-to-speech with the preset voices of chorus-voices and chorus-clone; each request is served by one of them.',
    });
    expect(componentValidator(RESPONSE_SCHEMAS)('ListModelEntry', entry)).toEqual([]);
  });

  it('derives what it does not declare: name and description from the members', () => {
    const bare = aliasEntry({ id: 'chorus', members: chorus.members }, [voices, clone]);
    expect(bare).toMatchObject({ name: 'chorus', description: 'Alias of chorus-voices, chorus-clone: each request is served by one of them.' });
  });

  it('says what a request may use: every member modality and parameter, the media profile a member takes', () => {
    expect(entry.architecture).toMatchObject({ input_modalities: ['text', 'audio'], output_modalities: ['audio', 'voice'], modality: 'text+audio->audio+voice' });
    expect(entry.architecture.audio_placeholder).toEqual(voices.architecture.audio_placeholder);
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

describe('aliasEntry: fields the operator declares on the alias', () => {
  const declared = {
    id: 'chorus',
    members: chorus.members,
    pricing: { input: { text: { characters: '0.00001' } }, output: { audio: { tokens: '0.000002' } } },
    architecture: { modality: 'text->audio', input_modalities: ['text' as const], output_modalities: ['audio' as const], audio_placeholder: { per_clip: 3, tokens_per_second: 50, rounding: 'ceil' as const } },
    context_length: 4096,
    supported_parameters: ['voice' as const],
  };
  const entry = aliasEntry(declared, [voices, clone]);

  it('lists each declared field whole, as configured, never merged with the members\' (no highest price, no extra modality)', () => {
    expect(entry.pricing).toEqual(declared.pricing);
    expect(entry.architecture).toEqual(declared.architecture);
    expect(entry.context_length).toBe(4096);
    expect(entry.supported_parameters).toEqual(['voice']);
    expect(entry.alias_of).toEqual(['chorus-voices', 'chorus-clone']);
    expect(componentValidator(RESPONSE_SCHEMAS)('ListModelEntry', entry)).toEqual([]);
  });

  it('derives its slug from a declared owner', () => {
    expect(aliasEntry({ ...declared, owned_by: 'Acme' }, [voices, clone])).toMatchObject({ owned_by: 'Acme', canonical_slug: 'acme/chorus' });
    expect(aliasEntry({ ...declared, owned_by: 'Acme', canonical_slug: 'x/y' }, [voices, clone]).canonical_slug).toBe('x/y');
  });

  it('still derives the fields it does not declare', () => {
    expect(entry.top_provider).toEqual(aliasEntry({ id: 'chorus', members: chorus.members }, [voices, clone]).top_provider);
  });
});
