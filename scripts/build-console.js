#!/usr/bin/env node
// Builds the cost console (console/ -> dist/console): one hashed JS bundle (preact, htm, uPlot, the app)
// and one hashed CSS file, index.html pointing at them, and manifest.json listing the files the
// gateway may serve (src/console/console-assets.ts). No CDN, nothing fetched at run time.
'use strict';
const { build } = require('esbuild');
const { mkdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { basename, join } = require('node:path');

const root = join(__dirname, '..');
const outdir = process.argv[2] || join(root, 'dist', 'console');

async function main() {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    entryPoints: { console: join(root, 'console', 'src', 'main.ts') },
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2020'],
    outdir,
    entryNames: '[name]-[hash]',
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const files = Object.keys(result.metafile.outputs).map((path) => basename(path));
  const script = files.find((name) => name.endsWith('.js'));
  const style = files.find((name) => name.endsWith('.css'));
  if (!script || !style) throw new Error(`console build produced ${files.join(', ')}: expected one .js and one .css`);
  const html = readFileSync(join(root, 'console', 'index.html'), 'utf8').replace('%SCRIPT%', script).replace('%STYLE%', style);
  writeFileSync(join(outdir, 'index.html'), html);
  writeFileSync(join(outdir, 'manifest.json'), `${JSON.stringify({ files: ['index.html', script, style] }, null, 2)}\n`);
  return [script, style];
}

main().then(
  (files) => console.log(`console built in ${outdir}: index.html, ${files.join(', ')}`),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
