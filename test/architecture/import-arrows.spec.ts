// The pure part of scripts/import-figures.ts (issue 39's import figures): folder arrows, the arrows
// running back up a layer order, the knots, and the order with the fewest back arrows, on hand-made
// import graphs shaped like madge's obj() (paths relative to src/).
import {
  type Arrow,
  backArrows,
  fileImports,
  folderArrows,
  knots,
  unitOf,
  unitsOutsideOrder,
} from '../../scripts/import-figures/import-arrows';
import { fewestBackArrowsOrder } from '../../scripts/import-figures/layer-order';

describe('unitOf', () => {
  it('is the top-level folder, a root file itself (its spec counted with it), nothing outside src/', () => {
    expect(unitOf('billing/pricing/price.ts')).toBe('billing');
    expect(unitOf('gateway.ts')).toBe('gateway.ts');
    expect(unitOf('embedded-default.spec.ts')).toBe('embedded-default.ts');
    expect(unitOf('node-version-check.int-spec.ts')).toBe('node-version-check.ts');
    expect(unitOf('../test/support/catalog-model.fixture.ts')).toBeUndefined();
  });
});

describe('folderArrows', () => {
  const graph = {
    'core/build-runtime.ts': ['billing/billing.service.ts', 'billing/pricing/price.ts', 'common/ids.ts', 'core/tokens.ts'],
    'billing/billing.service.ts': ['common/ids.ts', 'billing/pricing/price.ts'],
    'billing/pricing/price.ts': [],
    'billing/billing.service.spec.ts': ['billing/billing.service.ts', 'core/tokens.ts', '../test/support/fixture.ts'],
    'common/ids.ts': [],
    'core/tokens.ts': [],
    'main.ts': ['core/build-runtime.ts'],
    '../test/support/fixture.ts': ['common/ids.ts'],
  };

  it('counts one arrow per pair of different units, with the file imports that make it', () => {
    expect(folderArrows(graph)).toEqual([
      { from: 'billing', to: 'common', imports: 1 },
      { from: 'billing', to: 'core', imports: 1 },
      { from: 'core', to: 'billing', imports: 2 },
      { from: 'core', to: 'common', imports: 1 },
      { from: 'main.ts', to: 'core', imports: 1 },
    ]);
    // Imports inside src/ only: the spec's import of test/support and the fixture's of common are not counted.
    expect(fileImports(graph)).toHaveLength(9);
  });

  it('without spec files, drops the arrows only a spec makes', () => {
    expect(folderArrows(graph, { withSpecs: false }).map(({ from, to }) => `${from} -> ${to}`)).toEqual([
      'billing -> common',
      'core -> billing',
      'core -> common',
      'main.ts -> core',
    ]);
    expect(fileImports(graph, { withSpecs: false })).toHaveLength(7);
  });
});

describe('backArrows', () => {
  const arrows: Arrow[] = [
    { from: 'core', to: 'common', imports: 3 },
    { from: 'common', to: 'observability', imports: 2 },
    { from: 'observability', to: 'core', imports: 1 },
    { from: 'billing', to: 'routing', imports: 1 },
  ];

  it('are the arrows from a lower layer to a higher one; a unit the order does not name is not judged', () => {
    const layers = ['common', 'billing', 'observability', 'core'];
    expect(backArrows(arrows, layers)).toEqual([
      { from: 'common', to: 'observability', imports: 2 },
      { from: 'observability', to: 'core', imports: 1 },
    ]);
    expect(unitsOutsideOrder(arrows, layers)).toEqual(['routing']);
  });

  it('depend on the order alone: another order leaves other arrows, one every arrow follows leaves none', () => {
    expect(backArrows(arrows, ['routing', 'billing', 'common', 'core', 'observability'])).toEqual([
      { from: 'common', to: 'observability', imports: 2 },
    ]);
    expect(backArrows([{ from: 'core', to: 'common', imports: 1 }], ['common', 'core'])).toEqual([]);
  });
});

describe('knots', () => {
  it('are the groups of files that reach each other, largest first; a chain is none', () => {
    const graph = {
      'a.ts': ['b.ts'],
      'b.ts': ['c.ts', 'd.ts'],
      'c.ts': ['a.ts'],
      'd.ts': ['e.ts'],
      'e.ts': ['d.ts', 'f.ts'],
      'f.ts': [],
    };
    expect(knots(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts', 'e.ts']]);
    expect(knots({ 'a.ts': ['b.ts'], 'b.ts': ['c.ts'], 'c.ts': [] })).toEqual([]);
  });
});

describe('fewestBackArrowsOrder', () => {
  function permutations(items: string[]): string[][] {
    if (items.length <= 1) return [items];
    return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
  }

  it('puts every imported unit below its importer when nothing runs in a circle', () => {
    const arrows: Arrow[] = [
      { from: 'core', to: 'billing', imports: 1 },
      { from: 'billing', to: 'common', imports: 1 },
      { from: 'core', to: 'common', imports: 1 },
    ];
    const order = fewestBackArrowsOrder(arrows);
    expect(order).toEqual(['common', 'billing', 'core']);
    expect(backArrows(arrows, order)).toEqual([]);
  });

  it('leaves as few back arrows as the best of every order, then the fewest imports among them', () => {
    // Two circles sharing b: a -> b -> c -> a and b -> d -> b; d -> e outside them.
    const arrows: Arrow[] = [
      { from: 'a', to: 'b', imports: 5 },
      { from: 'b', to: 'c', imports: 1 },
      { from: 'c', to: 'a', imports: 2 },
      { from: 'b', to: 'd', imports: 4 },
      { from: 'd', to: 'b', imports: 1 },
      { from: 'd', to: 'e', imports: 1 },
    ];
    const cost = (order: string[]) => backArrows(arrows, order).reduce((sum, a) => sum + 1_000_000 + a.imports, 0);
    const best = Math.min(...permutations(['a', 'b', 'c', 'd', 'e']).map(cost));
    const order = fewestBackArrowsOrder(arrows);
    expect(cost(order)).toBe(best);
    expect(backArrows(arrows, order).map(({ from, to }) => `${from} -> ${to}`).sort()).toEqual(['b -> c', 'd -> b']);
  });

  function ring(size: number): Arrow[] {
    return Array.from({ length: size }, (_, i) => ({ from: `u${i}`, to: `u${(i + 1) % size}`, imports: 1 }));
  }

  it('orders a knot of 22 units exactly, and refuses one of 23 rather than guess', () => {
    const order = fewestBackArrowsOrder(ring(22));
    expect(order).toHaveLength(22);
    expect(backArrows(ring(22), order)).toHaveLength(1);
    expect(() => fewestBackArrowsOrder(ring(23))).toThrow('a knot of 23 units is too large to order exactly');
  });
});
