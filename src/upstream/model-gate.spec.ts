import { ModelGate, ModelStatusReader } from './model-gate';
import type { CatalogModel } from '../catalog/catalog.types';
import { ApiError } from '../common/api-error';

const model = { id: 'm', upstream: { cold_start_seconds: 42, max_concurrency: 2 } } as CatalogModel;

function reader(cold: boolean) {
  const nudged: string[] = [];
  const status: ModelStatusReader = { isCold: () => cold, nudge: (m) => nudged.push(m.id) };
  return { status, nudged };
}

const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err as ApiError;
  }
  throw new Error('expected a refusal');
};

describe('ModelGate', () => {
  it('refuses a cold model with the catalog cold-start estimate and nudges it awake', () => {
    const { status, nudged } = reader(true);
    const err = failure(() => new ModelGate(status).enter(model));
    expect([err.status, err.code, err.headers['retry-after']]).toEqual([503, 'model_cold', '42']);
    expect(nudged).toEqual(['m']);
  });

  it('admits up to the concurrency cap, sheds the next, and admits again after a release', () => {
    const gate = new ModelGate(reader(false).status);
    const first = gate.enter(model);
    gate.enter(model);
    const err = failure(() => gate.enter(model));
    expect([err.status, err.code, err.headers['retry-after']]).toEqual([503, 'model_overloaded', '1']);
    first();
    first();
    expect(gate.inFlightOf('m')).toBe(1);
    expect(() => gate.enter(model)).not.toThrow();
  });
});
