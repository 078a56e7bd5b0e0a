import fs from 'node:fs';
import path from 'node:path';
import { config } from '../../core/config';

/** The project root: this file is dist/host/extensions/entry-file.js once compiled. */
export const PROJECT_ROOT = path.resolve(__dirname, '..', '..', '..');
const DIST = path.join(PROJECT_ROOT, 'dist');

/**
 * The module the worker loads: `index.js` in the extension's directory (a plain JavaScript
 * extension, or one its author compiled), else, for a TypeScript extension inside the project's
 * own `extensions/`, the file `npx tsc -p .` compiled into dist/.
 */
export function findEntryFile(dir: string): string | { problem: string } {
  const plain = path.join(dir, 'index.js');
  if (fs.existsSync(plain)) return plain;
  if (!fs.existsSync(path.join(dir, 'index.ts'))) return { problem: 'It has no index.js (or index.ts) to load.' };
  const relative = path.relative(PROJECT_ROOT, dir);
  const compiled = path.join(DIST, relative, 'index.js');
  if (!relative.startsWith('..') && !path.isAbsolute(relative) && fs.existsSync(compiled)) return compiled;
  return { problem: 'It has an index.ts but no compiled index.js: build it (npx tsc -p . inside the project, or compile it to index.js beside config.json).' };
}

/** The project's own extensions directory, unless TALLY_EXTENSIONS_DIR names another. */
export function defaultExtensionsDir(): string {
  return config().extensionsDir || path.join(PROJECT_ROOT, 'extensions');
}
