import { Command } from 'commander';
import { terminalText } from './terminal-text';
import { localCaller } from './open-installation';
import { parseId, withInstallation } from './api-keys-command';
import { auditedCall } from './audited-call';

/** `tally settings set|get|list`: takes effect on running servers within about a second. */
export function settingsCommand(out: (text: string) => void): Command {
  const command = new Command('settings').description('Read and change installation and company settings');
  command
    .command('set <key> <value>')
    .description('Change a setting: maintenance_mode true|false, timezone <IANA zone>, invoice_format, invoice_start')
    .option('--company <id>', 'company id for company settings', parseId, 1)
    .action(async (key: string, value: string, options: { company: number }) => {
      await withInstallation((i) => auditedCall(i, 'settings', 'set', { key, value, company_id: options.company }, options.company));
      out(`${key} = ${value}`);
    });
  command
    .command('get <key>')
    .option('--company <id>', 'company id for company settings', parseId, 1)
    .action(async (key: string, options: { company: number }) => {
      out(terminalText(await withInstallation((i) => i.call('settings', 'get', { key, company_id: options.company }, localCaller(options.company)))));
    });
  command
    .command('list')
    .option('--company <id>', 'company id', parseId, 1)
    .action(async (options: { company: number }) => {
      const values = (await withInstallation((i) => i.call('settings', 'getList', { company_id: options.company }, localCaller(options.company)))) as Record<string, string>;
      out(
        Object.entries(values)
          .map(([k, v]) => `${terminalText(k)} = ${terminalText(v)}`)
          .join('\n'),
      );
    });
  return command;
}
