import fs from 'node:fs';
import path from 'node:path';

/** The project's root: this file runs as dist/core/kernel/tally-version.js. */
const ROOT = path.resolve(__dirname, '..', '..', '..');

let cached: string | undefined;

/** The version in the project's package.json (the one `npm install` built): `tally --version` and settings/getVersion. */
export function tallyVersion(): string {
  cached ??= (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  return cached;
}
