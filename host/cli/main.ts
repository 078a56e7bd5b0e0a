import { Command, CommanderError } from 'commander';
import { tallyVersion } from '../../core/kernel/tally-version';
import { config, ConfigError } from '../../core/config';
import { TallyError } from '../../core/kernel/tally-error';
import { afterCommandLineApiPrefix } from '../api/api-path';
import { apiKeysCommand } from './api-keys-command';
import { automationCommand } from './automation-command';
import { docsCommand } from './docs-command';
import { eventsCommand } from './events-command';
import { extensionCommand } from './extension-command';
import { invoicesCommand } from './invoices-command';
import { settingsCommand } from './settings-command';
import { staffCommand } from './staff-command';
import { webhooksCommand } from './webhooks-command';

const print = (text: string) => process.stdout.write(text.endsWith('\n') ? text : text + '\n');

/** `tally <command>`; answers the process exit status. */
export async function main(argv: string[]): Promise<number> {
  try {
    config();
  } catch (error) {
    // A bad environment variable stops every command before it touches anything.
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
  // The API form and the server are loaded only for those commands (the HTTP host, the admin area
  // and the extension runtime's loader cost a short-lived command such as a cron billing run about
  // 0.2 s of CPU to load).
  if (argv[0] && afterCommandLineApiPrefix(argv[0]) !== undefined) {
    const [{ runApiForm }, { openForApiPath }] = await Promise.all([import('./api-form'), import('./open-with-extensions')]);
    return runApiForm(argv, openForApiPath(argv[0]), print);
  }
  let status = 0;
  const program = new Command('tally')
    .description('Tally: a billing installation whose models are callable over HTTP and from here')
    .version(tallyVersion(), '-V, --version', 'print the version of Tally')
    .exitOverride()
    .addHelpText(
      'after',
      "\nThe API from the command line (tally api/<model>/<method>.json --help says more):\n  tally api/<model>/<method>.<format> -u USER -k KEY -m GET|POST|PUT|DELETE -p 'name=value&vars[x]=y'\n\nEvery command uses the database DATABASE_URL names (default data/tally.sqlite) and says which on standard error.",
    );
  program
    .command('serve')
    .description('Serve the API (PORT, default 8080; DATABASE_URL, default data/tally.sqlite)')
    .option('--port <port>', 'port to listen on')
    .option('--host <host>', 'address to listen on')
    .option('--workers <n>', 'number of host processes sharing the port (TALLY_WORKERS)')
    .action(async (options) => {
      status = await (await import('./serve-command')).serveCommand(options);
    });
  program.addCommand(apiKeysCommand(print));
  program.addCommand(settingsCommand(print));
  program.addCommand(docsCommand(print));
  program.addCommand(extensionCommand(print));
  program.addCommand(staffCommand(print));
  program.addCommand(automationCommand(print));
  program.addCommand(webhooksCommand(print));
  program.addCommand(eventsCommand(print));
  program.addCommand(invoicesCommand(print, (text) => process.stderr.write(`${text}\n`)));
  try {
    await program.parseAsync(argv, { from: 'user' });
    return status;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof TallyError) {
      const details = error.errors ? Object.values(error.errors).flatMap((e) => Object.values(e)) : [];
      process.stderr.write([error.message, ...details].join('\n') + '\n');
      return 1;
    }
    throw error;
  }
}
