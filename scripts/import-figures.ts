// Import figures of src/ (issue 39's "import arrows, arrows running back up and circles"), for one or more
// checkouts: node -r ts-node/register/transpile-only scripts/import-figures.ts [--derive] [--list] [dir ...]
// (dir: a checkout or git worktree with src/ and tsconfig.json; default the current directory). Method and
// figures: README.md, "Import figures" under Architecture.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import madge from 'madge';
import { type Arrow, type ImportGraph, backArrows, fileImports, folderArrows, knots, unitOf, unitsOutsideOrder } from './import-figures/import-arrows';
import { fewestBackArrowsOrder } from './import-figures/layer-order';

/**
 * The layer order, bottom first: imports are meant to run down it. Chosen once, on main after issue 39,
 * as the order with the fewest back arrows between production files (`--derive` prints that optimum),
 * then kept fixed and applied unchanged to older trees; a unit a tree lacks is skipped.
 */
export const LAYERS: readonly string[] = [
  'common',
  'catalog',
  'event-store',
  'projections',
  'budgets',
  'billing',
  'access',
  'rate-limits',
  'media',
  'routing',
  'config',
  'keys',
  'upstream',
  'models',
  'kafka',
  'observability',
  'costs',
  'health',
  'core',
  'idempotency',
  'images',
  'moderation',
  'openapi',
  'chat',
  'decisions',
  'speech',
  'transcription',
  'retired',
  'console',
  'simulator',
  'embedded-default.ts',
  'node-version-check.ts',
  'app.module.ts',
  'gateway.ts',
  'main.ts',
];

interface TreeFigures {
  label: string;
  files: number;
  imports: { all: number; production: number };
  arrows: { all: Arrow[]; production: Arrow[] };
  back: { all: Arrow[]; production: Arrow[] };
  /** The order with the fewest back arrows between this tree's production files, whatever LAYERS says. */
  ownBestOrder: string[];
  madgeCycles: number;
  knots: string[][];
  notInOrder: string[];
  skipped: string[];
}

const OPTIONS = ['--list', '--derive'];

async function figuresOf(dir: string): Promise<TreeFigures> {
  for (const needed of ['src', 'tsconfig.json']) {
    if (!existsSync(resolve(dir, needed))) throw new Error(`${dir} is not a checkout of the gateway: it has no ${needed}`);
  }
  const graph = await madge(resolve(dir, 'src'), { fileExtensions: ['ts'], tsConfig: resolve(dir, 'tsconfig.json') });
  const files: ImportGraph = graph.obj();
  const all = folderArrows(files);
  const production = folderArrows(files, { withSpecs: false });
  const inSrc = Object.fromEntries(Object.entries(files).filter(([file]) => unitOf(file) !== undefined));
  return {
    label: labelOf(dir),
    files: Object.keys(inSrc).length,
    imports: { all: fileImports(files).length, production: fileImports(files, { withSpecs: false }).length },
    arrows: { all, production },
    back: { all: backArrows(all, LAYERS), production: backArrows(production, LAYERS) },
    ownBestOrder: fewestBackArrowsOrder(production, LAYERS),
    madgeCycles: graph.circular().length,
    knots: knots(inSrc),
    notInOrder: unitsOutsideOrder(all, LAYERS),
    skipped: graph.warnings().skipped,
  };
}

function labelOf(dir: string): string {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return dir;
  }
}

function printTable(trees: TreeFigures[]): void {
  const rows: Array<[string, (t: TreeFigures) => string | number]> = [
    ['files in src/', (t) => t.files],
    ['file imports (all / no spec)', (t) => `${t.imports.all} / ${t.imports.production}`],
    ['folder arrows (all / no spec)', (t) => `${t.arrows.all.length} / ${t.arrows.production.length}`],
    ['back up LAYERS (all / no spec)', (t) => `${t.back.all.length} / ${t.back.production.length}`],
    ['back up, own best order (no spec)', (t) => backArrows(t.arrows.production, t.ownBestOrder).length],
    ['cycles, madge circular()', (t) => t.madgeCycles],
    ['knots (files in each)', (t) => `${t.knots.length} (${t.knots.map((k) => k.length).join(', ') || '-'})`],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log(['', ...trees.map((t) => t.label)].map((cell, i) => (i === 0 ? ''.padEnd(width) : cell.padStart(14))).join(' '));
  for (const [name, cell] of rows) console.log([name.padEnd(width), ...trees.map((t) => String(cell(t)).padStart(14))].join(' '));
}

function printDetails(tree: TreeFigures, list: boolean, derive: boolean): void {
  if (tree.notInOrder.length > 0) console.log(`${tree.label}: not in the layer order, not judged: ${tree.notInOrder.join(', ')}`);
  if (tree.skipped.length > 0) console.log(`${tree.label}: madge could not resolve: ${tree.skipped.join(', ')}`);
  for (const knot of tree.knots) console.log(`${tree.label}: knot of ${knot.length} files in ${[...new Set(knot.map((f) => f.split('/')[0]))].join(', ')}`);
  if (list) for (const a of tree.back.production) console.log(`${tree.label}: back up: ${a.from} -> ${a.to} (${a.imports} imports)`);
  if (derive) console.log(`${tree.label}: its own best order: ${tree.ownBestOrder.join(' < ')}`);
}

async function main(args: string[]): Promise<void> {
  const unknown = args.filter((arg) => arg.startsWith('-') && !OPTIONS.includes(arg));
  if (unknown.length > 0) throw new Error(`unknown option ${unknown.join(', ')} (options: ${OPTIONS.join(', ')})`);
  const dirs = args.filter((arg) => !arg.startsWith('-'));
  const trees: TreeFigures[] = [];
  for (const dir of dirs.length > 0 ? dirs : ['.']) trees.push(await figuresOf(dir));
  printTable(trees);
  for (const tree of trees) printDetails(tree, args.includes('--list'), args.includes('--derive'));
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
