import { Command } from 'commander';
import { localCaller, openInstallation } from './open-installation';

interface Row {
  id: number;
  company_id: number;
  user: string;
  notes: string | null;
  date_added: string;
  last_used: string | null;
}

/** `tally api-keys create|list|revoke`: credentials, administered from the machine itself. */
export function apiKeysCommand(out: (text: string) => void): Command {
  const command = new Command('api-keys').description('Create, list and revoke API credentials');
  command
    .command('create')
    .description('Create a credential for a company; the key is printed once and cannot be shown again')
    .requiredOption('--company <id>', 'company id', parseId)
    .option('--notes <text>', 'what the credential is for')
    .option('--json', 'print {"company_id","user","key"} as JSON')
    .action(async (options: { company: number; notes?: string; json?: boolean }) => {
      const created = (await withInstallation((i) =>
        i.call('api_keys', 'add', { vars: { company_id: options.company, notes: options.notes ?? '' } }, localCaller(options.company)),
      )) as { id: number; company_id: number; user: string; key: string };
      if (options.json) out(JSON.stringify({ company_id: created.company_id, user: created.user, key: created.key }));
      else out([`API user: ${created.user}`, `API key:  ${created.key}`, 'Store the key now: it is not shown again.'].join('\n'));
    });
  command
    .command('list')
    .description("List a company's credentials (never their keys)")
    .option('--company <id>', 'company id', parseId, 1)
    .option('--json', 'print JSON')
    .action(async (options: { company: number; json?: boolean }) => {
      const rows = (await withInstallation((i) => i.call('api_keys', 'getList', { company_id: options.company }, localCaller(options.company)))) as Row[];
      if (options.json) return out(JSON.stringify(rows));
      if (!rows.length) return out(`Company ${options.company} has no API credentials.`);
      out(rows.map((r) => `${r.id}\t${r.user}\tcreated ${r.date_added}\tlast used ${r.last_used ?? 'never'}${r.notes ? `\t${r.notes}` : ''}`).join('\n'));
    });
  command
    .command('revoke <id-or-user>')
    .description('Revoke a credential by id or API user')
    .action(async (which: string) => {
      await withInstallation(async (i) => {
        const row = await i.db
          .selectFrom('api_keys')
          .select(['id', 'company_id'])
          .where(/^\d+$/.test(which) ? 'id' : 'user', '=', /^\d+$/.test(which) ? Number(which) : which)
          .executeTakeFirst();
        if (!row) throw new Error(`No API credential ${which}.`);
        await i.call('api_keys', 'delete', { id: row.id }, localCaller(row.company_id));
      });
      out(`Revoked ${which}.`);
    });
  return command;
}

export async function withInstallation<T>(work: (i: import('../../core/installation').Installation) => Promise<T>): Promise<T> {
  const installation = await openInstallation();
  try {
    return await work(installation);
  } finally {
    await installation.close();
  }
}

export function parseId(value: string): number {
  if (!/^\d+$/.test(value)) throw new Error(`Expected a number, got "${value}".`);
  return Number(value);
}
