import { Command } from 'commander';
import { Installation } from '../../core/installation';
import { STAFF_AREAS, STAFF_PRESETS } from '../../core/identity/staff-areas';
import { findStaffMember } from '../admin/staff-accounts';
import { auditedCall } from './audited-call';
import { parseId, withInstallation } from './api-keys-command';
import { terminalText } from './terminal-text';

interface Group {
  readonly id: number;
  readonly name: string;
  readonly permissions: string[];
  readonly members: number;
}

const PRESETS = Object.keys(STAFF_PRESETS) as Array<keyof typeof STAFF_PRESETS>;

/**
 * `tally staff groups|group-add|set-group`: staff groups from the server, as Settings → Staff
 * manages them, through staff_groups/* on the call path (audited as `cli`). The way to give the
 * first restricted member a group, or to take a group away when nobody with full access can sign in.
 */
export function addStaffGroupCommands(command: Command, out: (text: string) => void): void {
  command
    .command('groups')
    .description("List a company's staff groups: id, name, members, the areas its members may change")
    .option('--company <id>', 'the company', parseId, 1)
    .option('--json', 'print JSON')
    .action(async (options: { company: number; json?: boolean }) => {
      const groups = (await withInstallation((i) => i.call('staff_groups', 'getAll', {}, { companyId: options.company, user: 'cli' }))) as Group[];
      if (options.json) return out(JSON.stringify(groups));
      out(
        groups.length
          ? groups.map((g) => [g.id, g.name, `${g.members} members`, g.permissions.join(',') || 'read-only'].map(terminalText).join('\t')).join('\n')
          : 'No staff groups yet: add one with `npx tally staff group-add`.',
      );
    });
  command
    .command('group-add')
    .description(`Add a staff group with --areas (${STAFF_AREAS.join(',')}; none: read-only) or --preset (${PRESETS.join(', ')})`)
    .requiredOption('--name <name>', 'the group name, unique in the company')
    .option('--areas <list>', 'comma-separated areas its members may change')
    .option('--preset <preset>', `one of ${PRESETS.join(', ')}`)
    .option('--company <id>', 'the company', parseId, 1)
    .action(async (options: { name: string; areas?: string; preset?: string; company: number }) => {
      if (options.areas !== undefined && options.preset !== undefined) throw new Error('Give --areas or --preset, not both.');
      if (options.preset !== undefined && !PRESETS.includes(options.preset as (typeof PRESETS)[number])) throw new Error(`Unknown preset "${options.preset}": use one of ${PRESETS.join(', ')}.`);
      const permissions = options.preset !== undefined ? [...STAFF_PRESETS[options.preset as (typeof PRESETS)[number]]] : (options.areas ?? '');
      const id = await withInstallation((i) => auditedCall(i, 'staff_groups', 'add', { vars: { name: options.name, permissions } }, options.company));
      out(`Added staff group ${terminalText(options.name)} (id ${id}).`);
    });
  command
    .command('set-group <username> <group>')
    .description('Put a staff member in a group of their company (its id or name), or in none ("none": full access)')
    .action(async (username: string, group: string) => {
      const done = await withInstallation((i) => setGroup(i, username, group));
      out(done);
    });
}

async function setGroup(installation: Installation, username: string, group: string): Promise<string> {
  const member = await findStaffMember(installation, username);
  const groups = (await installation.call('staff_groups', 'getAll', {}, { companyId: member.company_id, user: 'cli' })) as Group[];
  const chosen = group === 'none' ? null : (groups.find((g) => String(g.id) === group) ?? groups.find((g) => g.name === group));
  if (chosen === undefined) throw new Error(`Company ${member.company_id} has no staff group "${group}" (see tally staff groups --company ${member.company_id}).`);
  await auditedCall(installation, 'staff_groups', 'assign', { staff_id: member.id, staff_group_id: chosen ? chosen.id : '' }, member.company_id);
  return chosen
    ? `${terminalText(username)} is now in ${terminalText(chosen.name)}: they may change ${chosen.permissions.join(', ') || 'nothing (read-only)'}.`
    : `${terminalText(username)} is in no group: full access.`;
}
