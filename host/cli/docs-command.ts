import { Command } from 'commander';
import { config } from '../../core/config';
import fs from 'node:fs/promises';
import path from 'node:path';
import { DependencyContainer } from 'tsyringe';
import { createLogger } from '../logger';
import { withInstallation } from './api-keys-command';

export interface WrittenDocs {
  readonly files: string[];
  readonly operations: number;
}

/** Writes `openapi.json` and `index.html` (the browsable page, linking to it) into `dir`. */
export async function writeApiDocs(container: DependencyContainer, dir: string, serverUrl?: string): Promise<WrittenDocs> {
  // Loaded here rather than with the CLI, which every command (a cron billing run, say) loads.
  const [{ buildOpenApiDocument, documentedCalls }, { renderReferencePage }] = await Promise.all([import('../api/openapi'), import('../api/openapi/reference-page')]);
  const document = buildOpenApiDocument(container, { serverUrl });
  await fs.mkdir(dir, { recursive: true });
  const files = [path.join(dir, 'openapi.json'), path.join(dir, 'index.html')];
  await fs.writeFile(files[0], JSON.stringify(document, null, 2) + '\n');
  await fs.writeFile(files[1], renderReferencePage(document));
  return { files, operations: documentedCalls(document).length };
}

/**
 * `tally docs [--out docs/api] [--server URL]`: the API reference of this installation. It loads the
 * extensions as `tally serve` does, so the models, and so the reference, is the one the server
 * answers from. Whether a company has an extension enabled does not matter here: all are listed.
 */
export function docsCommand(out: (text: string) => void): Command {
  return new Command('docs')
    .description('Write the API reference (OpenAPI 3.1 openapi.json and a browsable index.html) to a folder')
    .option('--out <dir>', 'folder to write into', 'docs/api')
    .option('--server <url>', 'the address the installation is served at, recorded in the document (e.g. https://billing.example.com)')
    .action(async (options: { out: string; server?: string }) => {
      if (options.server !== undefined && !/^https?:\/\/[^\s]+$/.test(options.server)) throw new Error(`--server must be an http(s) URL, not "${options.server}".`);
      const written = await withInstallation(async (installation) => {
        const { loadExtensions } = await import('../extensions/load-extensions');
        await loadExtensions(installation, { logger: createLogger(config().logLevel === 'info' ? 'warn' : config().logLevel) });
        return writeApiDocs(installation.container, options.out, options.server);
      });
      out(`Documented ${written.operations} callable methods:\n${written.files.map((f) => `  ${f}`).join('\n')}`);
    });
}
