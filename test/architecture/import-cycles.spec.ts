// No import circle in src/ (issue 39): contracts live in leaf files, so a file never needs, even for a
// type, something that needs it back. madge reads the imports the way `madge --circular` does; a new
// circle fails here with its files listed, and the second case shows the check sees one.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import madge from 'madge';

jest.setTimeout(120_000);

const ROOT = join(__dirname, '..', '..');

async function importGraphOf(dir: string) {
  return madge(dir, { fileExtensions: ['ts'], tsConfig: join(ROOT, 'tsconfig.json') });
}

it('src/ has no import cycle', async () => {
  const graph = await importGraphOf(join(ROOT, 'src'));
  const files = Object.keys(graph.obj());
  console.log(`import graph of src/: ${files.length} files`);
  // A file madge cannot parse would drop out of the graph silently.
  expect(graph.warnings().skipped).toEqual([]);
  expect(files.length).toBeGreaterThan(100);
  expect(graph.circular().map((cycle) => cycle.join(' > '))).toEqual([]);
});

it('reports a cycle, even one made of type-only imports', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'import-cycle-'));
  try {
    writeFileSync(join(dir, 'port.ts'), "import type { Adapter } from './adapter';\nexport interface Port { adapter: Adapter }\n");
    writeFileSync(join(dir, 'adapter.ts'), "import type { Port } from './port';\nexport interface Adapter { port: Port }\n");
    const graph = await importGraphOf(dir);
    expect(graph.circular().map((cycle) => [...cycle].sort().join(' > '))).toEqual(['adapter.ts > port.ts']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
