import { sql } from 'kysely';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { assertValid, is } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { any, int, object } from '../kernel/parameter';
import { int as count, listOf, nothing, orFalse } from '../kernel/shape';
import { TallyError } from '../kernel/tally-error';
import { formatUtc } from '../kernel/timestamps';
import { STAFF_GROUP, STAFF_GROUP_ADD, STAFF_GROUP_EDIT } from './staff.fields';
import { parsePermissions, StaffArea } from '../identity/staff-areas';
import { readPermissions } from '../identity/staff-permissions-input';

export interface StaffGroupRecord {
  id: number;
  company_id: number;
  name: string;
  permissions: StaffArea[];
  members: number;
  date_added: string;
}

const NAME_MAX = 64;
const invalidGroup = () => TallyError.invalid({ staff_group_id: { exists: 'Invalid staff group ID.' } });

/**
 * Staff groups of the caller's company: a name and the areas its members may change
 * (core/identity/staff-areas.ts). The call path enforces them on every call a staff member
 * makes in the administrative area (core/trust/staff-permissions.ts); a staff member without a
 * group has full access. Another company's groups and staff read as not there.
 */
@model('staff_groups')
export class StaffGroups {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description: 'Add a group: vars[name] and vars[permissions] (areas among clients, billing, services, catalog, settings, staff; none: read-only). Returns its id.',
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: STAFF_GROUP_ADD,
    returns: count({ description: 'The new group id.' }),
  })
  async add(vars: Record<string, unknown>): Promise<number> {
    const permissions = readPermissions(vars.permissions);
    await assertValid(vars, this.nameRules(null));
    const row = await this.ctx.db
      .insertInto('staff_groups')
      .values({ company_id: this.ctx.companyId, name: String(vars.name).trim(), permissions: permissions.join(' '), date_added: formatUtc(new Date()) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  @callable({
    description: 'Change vars[name] or vars[permissions] of a group; its members have the new permissions from their next call.',
    verb: 'PUT',
    params: [int('staff_group_id'), object('vars')],
    vars: STAFF_GROUP_EDIT,
    returns: nothing(),
  })
  async edit(groupId: number, vars: Record<string, unknown>): Promise<null> {
    await this.group(groupId);
    const changes: { name?: string; permissions?: string } = {};
    if (vars.permissions !== undefined) changes.permissions = readPermissions(vars.permissions).join(' ');
    if (vars.name !== undefined) {
      await assertValid(vars, this.nameRules(groupId));
      changes.name = String(vars.name).trim();
    }
    if (Object.keys(changes).length) await this.ctx.db.updateTable('staff_groups').set(changes).where('id', '=', groupId).execute();
    return null;
  }

  @callable({ description: 'Delete a group that has no members (a group with members is kept: 400).', verb: 'DELETE', params: [int('staff_group_id')], returns: nothing() })
  async delete(groupId: number): Promise<null> {
    const group = await this.group(groupId);
    if (group.members > 0) throw TallyError.invalid({ staff_group_id: { in_use: 'The staff group cannot be deleted while staff members are in it.' } });
    await this.ctx.db.deleteFrom('staff_groups').where('id', '=', groupId).execute();
    return null;
  }

  @callable({ description: "A group of the caller's company; false when there is none.", verb: 'GET', params: [int('staff_group_id')], returns: orFalse(STAFF_GROUP) })
  async get(groupId: number): Promise<StaffGroupRecord | false> {
    const row = await this.query().where('staff_groups.id', '=', groupId).executeTakeFirst();
    return row ? present(row) : false;
  }

  @callable({ description: "Every group of the caller's company, by name, with how many members each has.", verb: 'GET', returns: listOf(STAFF_GROUP) })
  async getAll(): Promise<StaffGroupRecord[]> {
    return (await this.query().orderBy('staff_groups.name').orderBy('staff_groups.id').execute()).map(present);
  }

  @callable({
    description: 'Put a staff member of the company in a group (staff_group_id), or in none (empty: full access). Takes effect on their next call.',
    verb: 'POST',
    params: [int('staff_id'), any('staff_group_id', { default: null })],
    returns: nothing(),
  })
  async assign(staffId: number, groupId: unknown): Promise<null> {
    const member = await this.ctx.db.selectFrom('staff').select('id').where('id', '=', staffId).where('company_id', '=', this.ctx.companyId).executeTakeFirst();
    if (!member) throw TallyError.invalid({ staff_id: { exists: 'Invalid staff ID.' } });
    let group: number | null = null;
    if (groupId !== null && groupId !== undefined && groupId !== '') {
      if (!is.integer(groupId)) throw invalidGroup();
      group = (await this.group(Number(groupId))).id;
    }
    await this.ctx.db.updateTable('staff').set({ staff_group_id: group }).where('id', '=', staffId).execute();
    return null;
  }

  private query() {
    return this.ctx.db
      .selectFrom('staff_groups')
      .select(['staff_groups.id', 'staff_groups.company_id', 'staff_groups.name', 'staff_groups.permissions', 'staff_groups.date_added'])
      .select((eb) =>
        eb
          .selectFrom('staff')
          .select(sql<number>`count(*)`.as('n'))
          .whereRef('staff.staff_group_id', '=', 'staff_groups.id')
          .as('members'),
      )
      .where('staff_groups.company_id', '=', this.ctx.companyId);
  }

  private async group(groupId: number): Promise<StaffGroupRecord> {
    const group = await this.get(groupId);
    if (!group) throw invalidGroup();
    return group;
  }

  private nameRules(except: number | null) {
    return {
      name: [
        { code: 'empty', message: 'Please enter a name for the group.', check: is.present, final: true },
        { code: 'length', message: `The name may be at most ${NAME_MAX} characters.`, check: (v: unknown) => String(v).trim().length <= NAME_MAX, final: true },
        {
          code: 'unique',
          message: 'The company already has a staff group of that name.',
          check: async (v: unknown) => {
            let query = this.ctx.db.selectFrom('staff_groups').select('id').where('company_id', '=', this.ctx.companyId).where('name', '=', String(v).trim());
            if (except !== null) query = query.where('id', '!=', except);
            return !(await query.executeTakeFirst());
          },
        },
      ],
    };
  }
}

function present(row: { id: number; company_id: number; name: string; permissions: string; date_added: string; members: number | string | null }): StaffGroupRecord {
  return { id: row.id, company_id: row.company_id, name: row.name, permissions: parsePermissions(row.permissions), members: Number(row.members ?? 0), date_added: row.date_added };
}
