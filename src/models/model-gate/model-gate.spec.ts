import { ModelGate, ModelStatusReader } from './model-gate';
import type { CatalogModel } from '../../catalog/catalog.types';
import { ApiError } from '../../common/api-error';

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
    const err = failure(() => new ModelGate(status).enter(model, 'org-a'));
    expect([err.status, err.code, err.headers['retry-after']]).toEqual([503, 'model_cold', '42']);
    expect(nudged).toEqual(['m']);
  });

  it('admits up to the concurrency cap, sheds the next, and admits again after a release', () => {
    const gate = new ModelGate(reader(false).status, 1);
    const first = gate.enter(model, 'org-a');
    gate.enter(model, 'org-b');
    const err = failure(() => gate.enter(model, 'org-c'));
    expect([err.status, err.code, err.headers['retry-after']]).toEqual([503, 'model_overloaded', '1']);
    first();
    first();
    expect(gate.inFlightOf('m')).toBe(1);
    expect(() => gate.enter(model, 'org-c')).not.toThrow();
  });

  describe('fair share', () => {
    const capped = (cap: number, share?: number) => ({ id: 'm', upstream: { cold_start_seconds: 1, max_concurrency: cap, organization_share: share } }) as CatalogModel;

    it('admits one organization up to floor(cap * share) and sheds the next with 503 + Retry-After', () => {
      const gate = new ModelGate(reader(false).status);
      const releases = Array.from({ length: 5 }, () => gate.enter(capped(10), 'org-a'));
      const err = failure(() => gate.enter(capped(10), 'org-a'));
      expect([err.status, err.code, err.headers['retry-after']]).toEqual([503, 'organization_share_exceeded', '1']);
      expect(() => gate.enter(capped(10), 'org-b')).not.toThrow();
      releases[0]();
      releases[0]();
      expect(() => gate.enter(capped(10), 'org-a')).not.toThrow();
      expect(() => gate.enter(capped(10), 'org-a')).toThrow(ApiError);
    });

    it("uses the model's own share over the gateway default", () => {
      const gate = new ModelGate(reader(false).status, 0.5);
      for (let i = 0; i < 9; i++) gate.enter(capped(10, 0.9), 'org-a');
      expect(failure(() => gate.enter(capped(10, 0.9), 'org-a')).code).toBe('organization_share_exceeded');
    });

    it('a share of 1 lets one organization take every slot, then the model cap sheds', () => {
      const gate = new ModelGate(reader(false).status, 1);
      for (let i = 0; i < 3; i++) gate.enter(capped(3), 'org-a');
      expect(failure(() => gate.enter(capped(3), 'org-b')).code).toBe('model_overloaded');
    });

    it('a model without a cap bounds no organization', () => {
      const gate = new ModelGate(reader(false).status, 0.1);
      const uncapped = { id: 'u', upstream: { cold_start_seconds: 1, max_concurrency: null } } as CatalogModel;
      for (let i = 0; i < 100; i++) gate.enter(uncapped, 'org-a');
      expect(gate.inFlightOf('u')).toBe(100);
    });
  });
});
