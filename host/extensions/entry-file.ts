import fs from 'node:fs';
import path from 'node:path';
import { config } from '../../core/config';

/** The project root: this file is dist/host/extensions/entry-file.js once compiled. */
export const PROJECT_ROOT = path.resolve(__dirname, '..', '..', '..');
const DIST = path.join(PROJECT_ROOT, 'dist');

/**
 * The module the sandbox's bundle starts from: `index.js` in the extension's directory (plain
 * JavaScript, or compiled by its author); else, for a TypeScript extension inside the project's
 * own `extensions/`, the file `npx tsc -p .` compiled into dist/ when there is one; else the
 * `index.ts` itself, which the bundler compiles.
 */
export function findEntryFile(dir: string): string | { problem: string } {
  const plain = path.join(dir, 'index.js');
  if (fs.existsSync(plain)) return plain;
  const typescript = path.join(dir, 'index.ts');
  if (!fs.existsSync(typescript)) return { problem: 'It has no index.js (or index.ts) to load.' };
  const relative = path.relative(PROJECT_ROOT, dir);
  const compiled = path.join(DIST, relative, 'index.js');
  if (!relative.startsWith('..') && !path.isAbsolute(relative) && fs.existsSync(compiled)) return compiled;
  return typescript;
}

/** The project's own extensions directory, unless TALLY_EXTENSIONS_DIR names another. */
export function defaultExtensionsDir(): string {
  return config().extensionsDir || path.join(PROJECT_ROOT, 'extensions');
}
