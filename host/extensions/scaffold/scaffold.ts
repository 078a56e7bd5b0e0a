import fs from 'node:fs';
import path from 'node:path';
import { NAME_PATTERN } from '../manifest';
import { PROJECT_ROOT } from '../entry-file';
import { configJson, indexJs, indexTs, specTs } from './templates';

export const SCAFFOLD_TYPES = { plugin: 'plugins', module: 'modules', merchant: 'gateways/merchant', nonmerchant: 'gateways/nonmerchant' } as const;
export type ScaffoldType = keyof typeof SCAFFOLD_TYPES;

export interface ScaffoldOptions {
  type: string;
  name: string;
  /** Plain JavaScript instead of TypeScript. */
  js?: boolean;
  /** Defaults to the project's extensions/ and spec/extensions/. */
  extensionsDir?: string;
  specDir?: string;
}

/** Writes a working extension and its spec; answers the files written. Refuses to overwrite anything. */
export function scaffoldExtension(options: ScaffoldOptions): string[] {
  const place = SCAFFOLD_TYPES[options.type as ScaffoldType];
  if (!place) throw new Error(`The type must be one of: ${Object.keys(SCAFFOLD_TYPES).join(', ')} (not "${options.type}").`);
  if (!NAME_PATTERN.test(options.name)) throw new Error(`The name "${options.name}" must be lowercase letters, digits and _, starting with a letter: it becomes the API name.`);
  const extensionsDir = path.resolve(options.extensionsDir ?? path.join(PROJECT_ROOT, 'extensions'));
  const specDir = path.resolve(options.specDir ?? path.join(PROJECT_ROOT, 'spec', 'extensions'));
  const dir = path.join(extensionsDir, place, options.name);
  const specFile = path.join(specDir, `${options.name.replace(/_/g, '-')}.spec.ts`);
  for (const taken of [dir, specFile]) if (fs.existsSync(taken)) throw new Error(`${taken} already exists; choose another name.`);

  const manager = options.type === 'plugin' ? 'plugin_manager' : options.type === 'module' ? 'module_manager' : 'gateway_manager';
  const title = options.name
    .split('_')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');
  // The spec runs compiled, from dist/<its folder>; paths are written as that copy sees them.
  const compiledSpecDir = path.join(PROJECT_ROOT, 'dist', path.relative(PROJECT_ROOT, specDir));
  const testServer = importPath(specDir, path.join(PROJECT_ROOT, 'spec', 'support', 'test-server'));
  const files: Array<[string, string]> = [
    [path.join(dir, 'config.json'), configJson(title, options.type === 'merchant' || options.type === 'nonmerchant', options.name)],
    options.js ? [path.join(dir, 'index.js'), indexJs(options.name)] : [path.join(dir, 'index.ts'), indexTs(options.name, importPath(dir, path.join(PROJECT_ROOT, 'host', 'extensions', 'kit')))],
    [specFile, specTs(options.name, manager, testServer, path.relative(compiledSpecDir, extensionsDir))],
  ];
  for (const [file, text] of files) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return files.map(([file]) => file);
}

function importPath(from: string, to: string): string {
  const relative = path.relative(from, to).split(path.sep).join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}
