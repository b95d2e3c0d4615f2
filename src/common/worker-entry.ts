// Worker threads load their entry file themselves: compiled, it is the .js next to the caller; under
// ts-jest/ts-node it is the .ts source, which the thread needs ts-node to load.
import { dirname, extname, join } from 'node:path';

export interface WorkerEntry {
  file: string;
  execArgv: string[];
}

/** The worker module `baseName` in the same folder as `callerFile` (pass `__filename`). */
export function workerEntry(callerFile: string, baseName: string): WorkerEntry {
  const extension = extname(callerFile);
  const file = join(dirname(callerFile), `${baseName}${extension}`);
  return { file, execArgv: extension === '.ts' ? ['-r', 'ts-node/register/transpile-only'] : [] };
}
