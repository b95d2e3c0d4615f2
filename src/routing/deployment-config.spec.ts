// The catalog's deployments as the loader reads them: defaults, today's `upstream:` as one deployment,
// and the cross-field rules, each failure naming its path.
import { readFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { parseConfigText, ConfigError, interpolateEnv } from '../config/load-config';
import { exampleConfigPath } from '../embedded-default';
import { deploymentsOf } from './catalog-deployments';

const example = () => parse(interpolateEnv(readFileSync(exampleConfigPath(), 'utf8'), { SIMULATOR_URL: 'http://127.0.0.1:1' }));

function load(mutate: (raw: any) => void = () => undefined) {
  const raw = example();
  mutate(raw);
  return parseConfigText(stringify(raw), 'test.yaml', {});
}

function problemsOf(mutate: (raw: any) => void): string[] {
  try {
    load(mutate);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

const ariaIndex = () => example().models.findIndex((m: { id: string }) => m.id === 'aria');

describe('deployments in the catalog', () => {
  it('loads aria with two deployments, their defaults and exact cost text', () => {
    const aria = load().models.find((m) => m.id === 'aria')!;
    expect(aria.deployments!.map((d) => [d.id, d.weight])).toEqual([['sim-a', 2], ['sim-b', 1]]);
    expect(aria.deployments![1].cost!.input.text!.tokens).toBe('0.0000001');
    // The model gate's cap is the sum of the deployments' caps; the first one's address stands for the model.
    expect(aria.upstream.max_concurrency).toBe(64);
    expect(aria.upstream.base_url).toBe('http://127.0.0.1:1/v1');
  });

  it('keeps today\'s upstream as the one deployment `default`, without a cost', () => {
    const model = load().models.find((m) => m.id === 'aria-guarded')!;
    expect(deploymentsOf(model)).toEqual([
      expect.objectContaining({ id: 'default', base_url: model.upstream.base_url, weight: 1, cost: null, timeout_ms: model.upstream.timeout_ms }),
    ]);
  });

  it('fills weight, timeout and cold start when a deployment omits them', () => {
    const i = ariaIndex();
    const config = load((raw) => {
      raw.models[i].deployments[1] = { id: 'bare', base_url: 'http://127.0.0.1:2/v1' };
    });
    const bare = config.models[i].deployments![1];
    expect(bare).toMatchObject({ weight: 1, timeout_ms: 60_000, cold_start_seconds: 30, cost: null, api_key: null });
    expect(config.models[i].upstream.max_concurrency).toBeNull();
  });

  it('refuses a cost that misses a component the model produces, naming it', () => {
    const i = ariaIndex();
    expect(problemsOf((raw) => delete raw.models[i].deployments[0].cost.output.audio)).toEqual([
      `models[${i}].deployments[0].cost.output.audio.tokens: missing cost`,
    ]);
    expect(problemsOf((raw) => (raw.models[i].deployments[1].cost.input.text.tokens = '-1'))).toEqual([
      `models[${i}].deployments[1].cost.input.text.tokens: negative price`,
    ]);
    expect(problemsOf((raw) => (raw.models[i].deployments[1].cost.discount = 0.5))).toEqual([
      `models[${i}].deployments[1].cost.discount: a cost of goods has no discount`,
    ]);
  });

  it('accepts a deployment without any cost (margin unknown)', () => {
    const i = ariaIndex();
    expect(problemsOf((raw) => delete raw.models[i].deployments[1].cost)).toEqual([]);
  });

  it('refuses duplicate ids, both upstream.base_url and deployments, and neither', () => {
    const i = ariaIndex();
    expect(problemsOf((raw) => (raw.models[i].deployments[1].id = 'sim-a'))).toEqual([`models[${i}].deployments[1].id: duplicate deployment id 'sim-a'`]);
    expect(problemsOf((raw) => (raw.models[i].upstream = { base_url: 'http://127.0.0.1:3/v1' }))).toEqual([
      `models[${i}].upstream.base_url: give either upstream.base_url or deployments, not both`,
    ]);
    expect(problemsOf((raw) => delete raw.models[i].deployments).length).toBeGreaterThan(0);
    expect(problemsOf((raw) => (raw.models[i].deployments = []))).toContain(`models[${i}].deployments: must NOT have fewer than 1 items`);
  });

  it('checks weights at and past their edges', () => {
    const i = ariaIndex();
    expect(problemsOf((raw) => (raw.models[i].deployments[0].weight = 1000))).toEqual([]);
    expect(problemsOf((raw) => (raw.models[i].deployments[0].weight = 1000.5))).toEqual([`models[${i}].deployments[0].weight: must be <= 1000`]);
    expect(problemsOf((raw) => (raw.models[i].deployments[0].weight = 0))).toEqual([`models[${i}].deployments[0].weight: must be > 0`]);
  });
});
