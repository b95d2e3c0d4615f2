import { readFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { parseConfigText, ConfigError, toConfigPath, interpolateEnv } from './load-config';
import { exampleConfigPath } from '../embedded-default';

const example = () => parse(interpolateEnv(readFileSync(exampleConfigPath(), 'utf8'), { SIMULATOR_URL: 'http://127.0.0.1:1' }));

function problemsOf(mutate: (raw: any) => void): string[] {
  const raw = example();
  mutate(raw);
  try {
    parseConfigText(stringify(raw), 'test.yaml', {});
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('configuration loading', () => {
  it('accepts the shipped example', () => {
    expect(problemsOf(() => undefined)).toEqual([]);
  });

  it('takes an organization share above 0 and at most 1, and names any other', () => {
    expect(problemsOf((raw) => ((raw.models[0].upstream ??= {}).organization_share = 1))).toEqual([]);
    expect(problemsOf((raw) => ((raw.models[0].upstream ??= {}).organization_share = 0.001))).toEqual([]);
    expect(problemsOf((raw) => ((raw.models[0].upstream ??= {}).organization_share = 0))).toEqual(['models[0].upstream.organization_share: must be > 0']);
    expect(problemsOf((raw) => ((raw.models[0].upstream ??= {}).organization_share = 1.01))).toEqual(['models[0].upstream.organization_share: must be <= 1']);
  });

  it('turns JSON pointers into readable paths', () => {
    expect(toConfigPath('/models/3/pricing/input/text/tokens')).toBe('models[3].pricing.input.text.tokens');
  });

  it('names the path of a bad price', () => {
    const problems = problemsOf((raw) => (raw.models[3].pricing.input.audio.tokens = { x: 1 }));
    expect(problems.join('\n')).toContain('models[3].pricing.input.audio.tokens');
  });

  it('names a price that is not a decimal and a price the model needs but lacks', () => {
    expect(problemsOf((raw) => (raw.models[0].pricing.input.text.tokens = '0.1x'))).toEqual([
      'models[0].pricing.input.text.tokens: not a decimal: "0.1x"',
    ]);
    expect(problemsOf((raw) => delete raw.models[3].pricing.input.audio)).toEqual(['models[3].pricing.input.audio.tokens: missing price']);
  });

  it('reads numeric prices by their shortest decimal text', () => {
    const raw = example();
    raw.models[0].pricing.input.text.tokens = 0.0000004;
    raw.models[0].pricing.output.text.tokens = 1e-7;
    const config = parseConfigText(stringify(raw), 'test.yaml', {});
    expect(config.models[0].pricing.input.text?.tokens).toBe('0.0000004');
    expect(config.models[0].pricing.output.text?.tokens).toBe('0.0000001');
  });

  it('names unknown fields', () => {
    expect(problemsOf((raw) => (raw.models[0].pricing.input.text.tokenz = '1')).join('\n')).toContain(
      "models[0].pricing.input.text: must NOT have additional properties 'tokenz'",
    );
  });

  it('takes a diarization mode on transcription models only, and only a known one', () => {
    const at = (id: string) => (raw: any) => raw.models.findIndex((m: { id: string }) => m.id === id);
    const rhythm = at('rhythm')(example());
    const aria = at('aria')(example());
    for (const mode of ['service', 'diarized_json', 'speaker_labels']) {
      expect(problemsOf((raw) => (raw.models[rhythm].upstream.diarization = mode))).toEqual([]);
    }
    expect(problemsOf((raw) => (raw.models[rhythm].upstream.diarization = 'pyannote')).join('\n')).toContain(
      `models[${rhythm}].upstream.diarization: must be equal to one of the allowed values`,
    );
    expect(problemsOf((raw) => ((raw.models[aria].upstream ??= {}).diarization = 'diarized_json'))).toEqual([
      `models[${aria}].upstream.diarization: only a transcription model produces speaker labels`,
    ]);
  });

  it('rejects a malformed organization id and an alias of an unknown model', () => {
    expect(problemsOf((raw) => (raw.organizations[0].id = 'acme')).join('\n')).toMatch(/organizations\[0\]\.id: must match pattern/);
    expect(problemsOf((raw) => raw.aliases[0].members.push('nope'))).toEqual(["aliases[0].members[2]: unknown model 'nope'"]);
  });

  it('rejects keys of unknown organizations and a default outside the key', () => {
    const problems = problemsOf((raw) => {
      raw.keys = [{ id: 'k', hash: `sha256:${'a'.repeat(64)}`, organizations: ['org-nope'], default_organization: 'org-demo' }];
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        "keys[0].organizations[0]: unknown organization 'org-nope'",
        "keys[0].default_organization: 'org-demo' is not one of the key's organizations",
      ]),
    );
  });

  it('takes spending limits of at most 6 decimals and refuses one finer or negative', () => {
    const key = (limit: unknown) => (raw: any) => (raw.keys = [{ id: 'k', hash: `sha256:${'a'.repeat(64)}`, organizations: [raw.organizations[0].id], limit_usd: limit, limit_reset: 'weekly' }]);
    expect(problemsOf(key('0.000001'))).toEqual([]);
    expect(problemsOf(key(0.5))).toEqual([]);
    expect(problemsOf(key(1e-7))).toEqual(['keys[0].limit_usd: a USD amount from 0 below 10^13 with at most 6 decimals']);
    expect(problemsOf(key('0.0000001')).join('\n')).toContain('keys[0].limit_usd');
    expect(problemsOf((raw) => (raw.organizations[0].budget = { limit_usd: '100', limit_reset: 'monthly' }))).toEqual([]);
    expect(problemsOf((raw) => (raw.organizations[0].budget = { limit_usd: -1 })).join('\n')).toContain('organizations[0].budget');
    expect(problemsOf((raw) => (raw.organizations[0].budget = { limit_usd: '1', limit_reset: 'hourly' })).join('\n')).toContain('organizations[0].budget');
  });

  it('takes management keys by hash, refusing a duplicate id, a plain key and a hash shared with a model key', () => {
    const hash = `sha256:${'c'.repeat(64)}`;
    expect(problemsOf((raw) => (raw.management_keys = [{ id: 'ops', hash }]))).toEqual([]);
    expect(problemsOf((raw) => (raw.management_keys = [{ id: 'ops', hash }, { id: 'ops', hash: `sha256:${'d'.repeat(64)}` }]))).toEqual([`management_keys: duplicate id 'ops'`]);
    expect(problemsOf((raw) => (raw.management_keys = [{ id: 'ops', hash: 'sk-plain' }]))[0]).toMatch(/^management_keys\[0\]\.hash: must match pattern/);
    const shared = problemsOf((raw) => {
      raw.keys = [{ id: 'k', hash, organizations: [raw.organizations[0].id] }];
      raw.management_keys = [{ id: 'ops', hash }];
    });
    expect(shared).toEqual(['management_keys[0].hash: also the hash of a model key; a key is one or the other']);
  });

  it('applies the spec defaults: 60 requests per 60 s, media rejected when absent', () => {
    const raw = example();
    delete raw.organizations[0].rate_limit;
    delete raw.models[1].media_profiles;
    const config = parseConfigText(stringify(raw), 'test.yaml', {});
    expect(config.organizations[0].rate_limit).toEqual({ requests: 60, window_seconds: 60 });
    expect(config.models[1].media_profiles).toEqual({ audio: null, image: null, video: null });
  });

  it('takes an organization\'s usage_format, spec by default, and nothing but spec or openai', () => {
    const raw = example();
    delete raw.organizations[0].usage_format;
    raw.organizations.push({ id: 'org-sdk', usage_format: 'openai' });
    const config = parseConfigText(stringify(raw), 'test.yaml', {});
    expect(config.organizations.map((o) => o.usage_format)).toEqual(['spec', 'openai']);
    expect(problemsOf((r) => (r.organizations[0].usage_format = 'OpenAI'))).toEqual(['organizations[0].usage_format: must be equal to one of the allowed values']);
  });

  it('takes listing fields on an alias, checked like a model\'s, with its prices as exact decimal text', () => {
    const raw = example();
    raw.aliases[0].pricing = { input: { text: { characters: 0.00001 } }, output: {} };
    raw.aliases[0].architecture = { modality: 'text->audio', input_modalities: ['text'], output_modalities: ['audio'], audio_placeholder: { per_clip: 0, tokens_per_second: 25 } };
    const config = parseConfigText(stringify(raw), 'test.yaml', {});
    expect(config.aliases[0].pricing).toEqual({ input: { text: { characters: '0.00001' } }, output: {} });
    expect(problemsOf((r) => (r.aliases[0].architecture = { modality: 'text->audio', input_modalities: ['smell'], output_modalities: [] }))).toContain(
      'aliases[0].architecture.input_modalities[0]: must be equal to one of the allowed values',
    );
    expect(problemsOf((r) => (r.aliases[0].status = 'warm'))).toEqual(["aliases[0]: must NOT have additional properties 'status'"]);
  });

  it('fails on an unset environment variable and on invalid YAML', () => {
    expect(() => interpolateEnv('a: ${NOPE_VAR}', {})).toThrow('NOPE_VAR');
    expect(interpolateEnv('a: ${NOPE_VAR:-x}', {})).toBe('a: x');
    expect(() => parseConfigText('models: [', 't', {})).toThrow(/not valid YAML/);
  });
});
