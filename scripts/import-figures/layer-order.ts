// Deriving a layer order with the fewest arrows running back up (a minimum feedback arc set): the layer
// order scripts/import-figures.ts declares was chosen with this on main, and the script prints this
// optimum beside the declared order's count, so a reader sees the declared order is not flattering itself.
import { type Arrow, knots, unitGraph } from './import-arrows';

// A back arrow costs more than any number of file imports: fewest arrows first, then fewest imports.
const ARROW_WEIGHT = 1_000_000;
// 2^22 subsets per knot is about a second and 40 MB; a larger knot would need a heuristic instead.
const MAX_EXACT_KNOT = 22;

/**
 * Units bottom first such that the fewest arrows run from a lower unit to a higher one (ties: fewest
 * file imports). Units that import each other only through a knot are ordered exactly within it; the
 * knots and the other units follow the imports between them, ties broken by `preferred`'s order.
 */
export function fewestBackArrowsOrder(arrows: readonly Arrow[], preferred: readonly string[] = []): string[] {
  const graph = unitGraph(arrows);
  const knotOf = new Map<string, string[]>();
  for (const knot of knots(graph)) for (const unit of knot) knotOf.set(unit, knot);
  const components = Object.keys(graph).map((unit) => knotOf.get(unit) ?? [unit]);
  const distinct = [...new Set(components)];
  const order: string[] = [];
  for (const component of componentsBottomFirst(distinct, arrows, preferred)) {
    order.push(...(component.length === 1 ? component : exactOrder(component, arrows, preferred)));
  }
  return order;
}

function preferenceOf(preferred: readonly string[]): (unit: string) => number {
  const rank = new Map(preferred.map((unit, index) => [unit, index]));
  return (unit) => rank.get(unit) ?? preferred.length;
}

// Kahn's algorithm on the knots and lone units: a component goes below every component that imports it.
function componentsBottomFirst(components: string[][], arrows: readonly Arrow[], preferred: readonly string[]): string[][] {
  const componentOf = new Map<string, string[]>();
  for (const component of components) for (const unit of component) componentOf.set(unit, component);
  const importsLeft = new Map(components.map((component) => [component, new Set<string[]>()]));
  for (const { from, to } of arrows) {
    const importer = componentOf.get(from)!;
    const imported = componentOf.get(to)!;
    if (importer !== imported) importsLeft.get(importer)!.add(imported);
  }
  const preference = preferenceOf(preferred);
  const key = (component: string[]) => Math.min(...component.map(preference));
  const placed = new Set<string[]>();
  const order: string[][] = [];
  while (order.length < components.length) {
    const ready = components.filter((c) => !placed.has(c) && [...importsLeft.get(c)!].every((d) => placed.has(d)));
    ready.sort((a, b) => key(a) - key(b) || a[0].localeCompare(b[0]));
    placed.add(ready[0]);
    order.push(ready[0]);
  }
  return order;
}

// Dynamic programming over subsets: best[S] is the cheapest way to fill the lowest |S| places with S.
function exactOrder(knot: string[], arrows: readonly Arrow[], preferred: readonly string[]): string[] {
  if (knot.length > MAX_EXACT_KNOT) throw new Error(`a knot of ${knot.length} units is too large to order exactly`);
  const preference = preferenceOf(preferred);
  const units = [...knot].sort((a, b) => preference(a) - preference(b) || a.localeCompare(b));
  const position = new Map(units.map((unit, index) => [unit, index]));
  // importers[v]: the units of the knot that import v, with the cost of v sitting above each of them.
  const importers = units.map(() => [] as Array<{ unit: number; cost: number }>);
  for (const { from, to, imports } of arrows) {
    const u = position.get(from);
    const v = position.get(to);
    if (u !== undefined && v !== undefined) importers[v].push({ unit: u, cost: ARROW_WEIGHT + imports });
  }
  const full = (1 << units.length) - 1;
  const best = new Float64Array(full + 1).fill(Infinity);
  const top = new Int8Array(full + 1).fill(-1);
  best[0] = 0;
  for (let set = 0; set < full; set++) {
    if (best[set] === Infinity) continue;
    for (let v = 0; v < units.length; v++) {
      if (set & (1 << v)) continue;
      let cost = best[set];
      for (const importer of importers[v]) if (set & (1 << importer.unit)) cost += importer.cost;
      const next = set | (1 << v);
      if (cost < best[next]) {
        best[next] = cost;
        top[next] = v;
      }
    }
  }
  const order: string[] = [];
  for (let set = full; set !== 0; set &= ~(1 << top[set])) order.unshift(units[top[set]]);
  return order;
}
