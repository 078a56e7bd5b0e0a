import { Command } from 'commander';
import { terminalText } from './terminal-text';
import { auditedCall } from './audited-call';
import { databaseLine, localCaller, openInstallation } from './open-installation';

interface Row {
  id: number;
  company_id: number;
  user: string;
  notes: string | null;
  date_added: string;
  last_used: string | null;
  last_used_ip: string | null;
  installation: boolean;
  scopes: string[];
  read_only: boolean;
}

interface Created {
  id: number;
  company_id: number;
  user: string;
  key: string;
  installation: boolean;
}

interface CreateOptions {
  company: number;
  installation?: boolean;
  scope: string[];
  readOnly?: boolean;
  allowIp: string[];
  expires?: string;
  notes?: string;
  json?: boolean;
  shell?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** `tally api-keys create|list|revoke`: credentials, administered from the machine itself. */
export function apiKeysCommand(out: (text: string) => void): Command {
  const command = new Command('api-keys').description('Create, list and revoke API credentials');
  command
    .command('create')
    .description('Create a credential; the key is printed once and cannot be shown again')
    .option('--company <id>', 'company id (the company it acts as)', parseId, 1)
    .option('--installation', 'an installation credential: every company, companies/add, system settings, staff identities')
    .option('--scope <pattern>', 'allowed calls, e.g. invoices/* or clients/get* (repeat for more); default every call', collect, [])
    .option('--read-only', 'only methods declared GET')
    .option('--allow-ip <cidr>', 'addresses it may be used from, e.g. 203.0.113.0/24 (repeat for more)', collect, [])
    .option('--expires <timestamp>', 'when it stops working, e.g. "2030-01-31 00:00:00 UTC"')
    .option('--notes <text>', 'what the credential is for')
    .option('--json', 'print {"company_id","user","key","installation"} as JSON')
    .option('--shell', 'print `export TALLY_USER=... TALLY_KEY=...` for `eval "$(npx tally api-keys create --shell)"`')
    .action(async (options: CreateOptions) => {
      const vars: Record<string, unknown> = { company_id: options.company, notes: options.notes ?? '', installation: options.installation ? 'true' : 'false' };
      if (options.scope.length) vars.scopes = options.scope;
      if (options.allowIp.length) vars.allow_ips = options.allowIp;
      if (options.readOnly) vars.read_only = 'true';
      if (options.expires !== undefined) vars.expires_at = options.expires;
      const created = (await withInstallation((i) => auditedCall(i, 'api_keys', 'add', { vars }, options.company))) as Created;
      if (options.shell) {
        // Only the assignment on stdout, for eval; the reader still sees the user and the warning.
        out(`export TALLY_USER=${created.user} TALLY_KEY=${created.key}`);
        process.stderr.write(`API user ${created.user} created for company ${created.company_id}; its key is now in TALLY_KEY and is not shown again.\n`);
      } else if (options.json) out(JSON.stringify({ company_id: created.company_id, user: created.user, key: created.key, installation: created.installation }));
      else {
        const kind = created.installation ? 'an installation credential (every company)' : `a credential of company ${created.company_id}`;
        out([`API user: ${created.user}`, `API key:  ${created.key}`, `This is ${kind}. Store the key now: it is not shown again.`].join('\n'));
      }
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
      const kind = (r: Row) => [r.installation ? 'installation' : 'company', r.read_only ? 'read-only' : '', r.scopes.length ? `calls ${r.scopes.join(',')}` : ''].filter(Boolean).join(' ');
      const used = (r: Row) => (r.last_used ? `${r.last_used}${r.last_used_ip ? ` from ${r.last_used_ip}` : ''}` : 'never');
      const line = (r: Row) => [r.id, r.user, kind(r), `created ${r.date_added}`, `last used ${used(r)}`, ...(r.notes ? [r.notes] : [])].map(terminalText).join('\t');
      out(rows.map(line).join('\n'));
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
        await auditedCall(i, 'api_keys', 'delete', { id: row.id }, row.company_id);
      });
      out(`Revoked ${which}.`);
    });
  return command;
}

/** Runs a command's work on the installation DATABASE_URL names, saying which one on stderr (stdout stays the answer). */
export async function withInstallation<T>(work: (i: import('../../core/installation').Installation) => Promise<T>): Promise<T> {
  const installation = await openInstallation();
  process.stderr.write(`${databaseLine(installation)}\n`);
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
