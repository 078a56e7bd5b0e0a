import fs from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { ExtensionType } from '../../core/kernel/extension-catalog';
import { findEntryFile } from './entry-file';
import { checkManifest, Manifest, NAME_PATTERN } from './manifest';

/** One directory found under the extensions directory; `problem` says why it cannot be loaded. */
export interface Candidate {
  readonly type: ExtensionType;
  readonly kind: 'merchant' | 'nonmerchant' | null;
  readonly name: string;
  /** `plugins/support_manager`, for messages. */
  readonly where: string;
  readonly dir: string;
  readonly manifest: Manifest | null;
  readonly entry: string | null;
  readonly problem: string | null;
}

const PLACES: ReadonlyArray<{ pattern: string; type: ExtensionType; kind: Candidate['kind'] }> = [
  { pattern: 'plugins/*', type: 'plugin', kind: null },
  { pattern: 'modules/*', type: 'module', kind: null },
  { pattern: 'gateways/merchant/*', type: 'gateway', kind: 'merchant' },
  { pattern: 'gateways/nonmerchant/*', type: 'gateway', kind: 'nonmerchant' },
];

/** Every extension directory under `root`, with its manifest read and checked. A missing root is simply empty. */
export async function discover(root: string): Promise<Candidate[]> {
  const found: Candidate[] = [];
  for (const place of PLACES) {
    const dirs = await fg(place.pattern, { cwd: root, onlyDirectories: true, deep: 1, followSymbolicLinks: true });
    for (const where of dirs.sort()) found.push(inspect(root, where, place.type, place.kind));
  }
  return found;
}

function inspect(root: string, where: string, type: ExtensionType, kind: Candidate['kind']): Candidate {
  const dir = path.join(root, where);
  const name = path.basename(where);
  const base = { type, kind, name, where, dir, manifest: null, entry: null };
  if (!NAME_PATTERN.test(name)) return { ...base, problem: `The directory name "${name}" must be lowercase letters, digits and _, starting with a letter: it becomes the API name.` };
  const file = path.join(dir, 'config.json');
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    return { ...base, problem: e.code === 'ENOENT' ? 'It has no config.json manifest.' : `config.json is not valid JSON: ${e.message}` };
  }
  const checked = checkManifest(raw, type === 'gateway');
  if (!checked.ok) return { ...base, problem: `config.json: ${checked.problems.join(' ')}` };
  const entry = findEntryFile(dir);
  if (typeof entry !== 'string') return { ...base, manifest: checked.manifest, problem: entry.problem };
  return { ...base, manifest: checked.manifest, entry, problem: null };
}
