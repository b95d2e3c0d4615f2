// main.ts's first import: on a Node older than package.json "engines" asks for, say so in one line
// and exit 1, before any native addon (better-sqlite3) is loaded: loaded by an older Node it can
// crash the process with a segfault instead of an error. Kept free of imports and modern syntax so
// that it runs on any Node that can parse the compiled file.

/** package.json "engines": ">=24" (test/deploy/node-version.spec.ts keeps the two equal). */
export const REQUIRED_NODE_MAJOR = 24;

/** The line to print when `version` (process.versions.node) is too old, else null. */
export function nodeVersionProblem(version: string, required: number = REQUIRED_NODE_MAJOR): string | null {
  const major = Number(version.split('.')[0]);
  if (Number.isInteger(major) && major >= required) return null;
  return (
    `inference gateway needs Node.js >= ${required} (this is ${version}); ` +
    `run scripts/setup.sh, which fetches Node ${required} into .cache/node/, and put its bin directory first on PATH ` +
    `(or run npm start from a shell where node --version shows v${required} or later)`
  );
}

const problem = nodeVersionProblem(process.versions.node);
if (problem !== null) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
