import path from 'node:path';
import { Command } from 'commander';
import { scaffoldExtension, SCAFFOLD_TYPES } from '../extensions/scaffold/scaffold';

/** `tally extension new <type> <name>`: the extension author's starting point. */
export function extensionCommand(out: (text: string) => void): Command {
  const command = new Command('extension').description('Work on extensions (plugins, modules, gateways)');
  command
    .command('new <type> <name>')
    .description(`Scaffold a working, tested extension; <type> is ${Object.keys(SCAFFOLD_TYPES).join(', ')}`)
    .option('--js', 'plain JavaScript (index.js, no build step) instead of TypeScript')
    .option('--dir <extensions-dir>', "where extensions live (default: the project's extensions/)")
    .option('--spec-dir <dir>', 'where its spec goes (default: spec/extensions/)')
    .action((type: string, name: string, options: { js?: boolean; dir?: string; specDir?: string }) => {
      const files = scaffoldExtension({ type, name, js: options.js, extensionsDir: options.dir, specDir: options.specDir });
      const shown = files.map((f) => `  ${path.relative(process.cwd(), f)}`);
      out(
        [
          `Created the ${type} ${name}:`,
          ...shown,
          '',
          'Next: npm test (builds it and runs its spec), then restart `tally serve` and install it for a company:',
          `  POST /api/${type === 'plugin' ? 'plugin' : type === 'module' ? 'module' : 'gateway'}_manager/add.json  vars[dir]=${name}`,
          `Its model answers at /api/${name}.notes/<method>.json. See docs/extensions.md.`,
        ].join('\n'),
      );
    });
  return command;
}
