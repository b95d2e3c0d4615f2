// The pure part of scripts/import-figures.ts: from a file import graph (madge's obj(), paths relative to
// src/) to folder-level import arrows, the arrows running back up a declared layer order, and the knots
// (groups of files that import each other). No I/O, so test/architecture/import-arrows.spec.ts runs it on
// hand-made edge lists.

/** Each file and the files it imports, as madge's obj() gives them (relative to src/). */
export type ImportGraph = Record<string, readonly string[]>;

/** A distinct pair of units `from -> to` and how many file imports make it. */
export interface Arrow {
  from: string;
  to: string;
  imports: number;
}

/**
 * The unit an arrow joins: the top-level folder under src/, or the file itself for a file at src/'s root
 * (gateway.ts, main.ts: the README's layering names them), its spec counted with it. A path outside src/
 * (madge follows a spec's import into test/support, or load-config's into docs/) belongs to no unit.
 */
export function unitOf(file: string): string | undefined {
  if (file.startsWith('../') || file.startsWith('/')) return undefined;
  const slash = file.indexOf('/');
  return slash === -1 ? file.replace(/[.-](int-|e2e-)?spec\.ts$/, '.ts') : file.slice(0, slash);
}

/** Test code by its name: *.spec.ts, *.int-spec.ts, *.e2e-spec.ts. */
export function isSpecFile(file: string): boolean {
  return /[.-]spec\.ts$/.test(file);
}

export interface ArrowOptions {
  /** Count imports made by or made of spec files (default true). */
  withSpecs?: boolean;
}

/** The file imports inside src/ that the view counts (both ends in a unit, spec files kept or not). */
export function fileImports(graph: ImportGraph, options: ArrowOptions = {}): Array<[string, string]> {
  const withSpecs = options.withSpecs ?? true;
  const counted = (file: string) => unitOf(file) !== undefined && (withSpecs || !isSpecFile(file));
  const imports: Array<[string, string]> = [];
  for (const [file, targets] of Object.entries(graph)) {
    if (!counted(file)) continue;
    for (const target of targets) if (counted(target)) imports.push([file, target]);
  }
  return imports;
}

/** The arrows between different units, sorted by `from` then `to`. */
export function folderArrows(graph: ImportGraph, options: ArrowOptions = {}): Arrow[] {
  const byPair = new Map<string, Arrow>();
  for (const [file, target] of fileImports(graph, options)) {
    const from = unitOf(file)!;
    const to = unitOf(target)!;
    if (from === to) continue;
    const key = `${from} -> ${to}`;
    const arrow = byPair.get(key) ?? { from, to, imports: 0 };
    arrow.imports += 1;
    byPair.set(key, arrow);
  }
  return [...byPair.values()].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}

/**
 * The arrows running back up: `layers` lists the units bottom first, and imports are meant to run down
 * (a higher unit imports a lower one). An arrow from a lower unit to a higher one runs back up. Arrows
 * touching a unit the order does not name are not judged (see unitsOutsideOrder).
 */
export function backArrows(arrows: readonly Arrow[], layers: readonly string[]): Arrow[] {
  const rank = new Map(layers.map((unit, index) => [unit, index]));
  return arrows.filter((arrow) => {
    const from = rank.get(arrow.from);
    const to = rank.get(arrow.to);
    return from !== undefined && to !== undefined && from < to;
  });
}

/** Units that arrows join but the layer order does not name, so none of their arrows is judged. */
export function unitsOutsideOrder(arrows: readonly Arrow[], layers: readonly string[]): string[] {
  const named = new Set(layers);
  const outside = new Set(arrows.flatMap((arrow) => [arrow.from, arrow.to]).filter((unit) => !named.has(unit)));
  return [...outside].sort();
}

/**
 * Strongly connected components with more than one node: each a knot of nodes that reach each other
 * through imports (Tarjan's algorithm, iterative so a deep graph cannot overflow the stack).
 */
export function knots(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  const targetsOf = (node: string) => graph[node] ?? [];
  for (const start of Object.keys(graph)) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = targetsOf(frame.node);
      if (frame.edge < targets.length) {
        const target = targets[frame.edge++];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1) found.push(component.sort());
    }
  }
  return found.sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]));
}

/** The unit graph the arrows make, in the shape knots() reads. */
export function unitGraph(arrows: readonly Arrow[]): ImportGraph {
  const graph: Record<string, string[]> = {};
  for (const { from, to } of arrows) {
    (graph[from] ??= []).push(to);
    graph[to] ??= [];
  }
  return graph;
}
