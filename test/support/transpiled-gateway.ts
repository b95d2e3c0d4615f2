// The gateway as plain JavaScript, for tests that measure its memory: under ts-node the TypeScript
// compiler itself stays loaded (about 220 MiB more RSS at idle), which would hide what the gateway
// uses. Each source file is transpiled alone (as ts-node's transpile-only mode does) into a temporary
// tree beside symlinks to the repository's node_modules and config, which the code finds from there.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import * as ts from 'typescript';

const ROOT = join(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !/\.(int-|e2e-)?spec\.ts$/.test(entry.name) ? [path] : [];
  });
}

export interface TranspiledGateway {
  /** The transpiled `src/main.js`. */
  entry: string;
  /** Deletes the tree; the symlinks are unlinked, never followed (rmSync does not follow them). */
  remove(): void;
}

export function transpileGateway(): TranspiledGateway {
  const out = mkdtempSync(join(tmpdir(), 'gw-js-'));
  const compilerOptions = ts.parseJsonConfigFileContent(ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config, ts.sys, ROOT).options;
  for (const file of sourceFiles(join(ROOT, 'src'))) {
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions: { ...compilerOptions, sourceMap: false }, fileName: file });
    const target = join(out, relative(ROOT, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  for (const shared of ['node_modules', 'config', 'docs', 'package.json']) symlinkSync(join(ROOT, shared), join(out, shared));
  return { entry: join(out, 'src', 'main.js'), remove: () => rmSync(out, { recursive: true, force: true }) };
}
