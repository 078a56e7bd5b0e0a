import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { ExtensionCatalog } from '../../kernel/extension-catalog';
import { FieldErrors } from '../../kernel/errors';
import { is } from '../../kernel/input-rules';
import { facet } from '../../kernel/model';
import { int, object } from '../../kernel/parameter';
import { int as id, nothing, orFalse } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { ModuleRowStore } from '../../billing/module-row-store';
import { MODULE_GROUP, MODULE_GROUPS } from '../module-rows.fields';
import { findModule, requireModule } from './installed-module';

export const ADD_ORDERS = ['first', 'roundrobin'] as const;

/**
 * The reference's module groups: named sets of a module's rows. A service added with
 * vars[module_group_id] goes on one of the group's rows, chosen by its add_order.
 */
@facet('module_manager')
export class ModuleGroups {
  constructor(
    private readonly ctx: CallContext,
    private readonly catalog: ExtensionCatalog,
  ) {}

  @callable({
    verb: 'POST',
    params: [int('module_id'), object('vars')],
    returns: id({ description: 'The new module group id.' }),
    description:
      "Add a group to the company's module: vars[name], vars[module_rows][] (rows of that module), vars[add_order] (first, roundrobin; first), vars[force_limits] (0, 1; 0). Returns its id.",
  })
  async addGroup(moduleId: number, vars: Record<string, unknown>) {
    await requireModule(this.ctx, this.catalog, moduleId);
    const values = await this.check(moduleId, vars, false);
    const row = await this.ctx.db
      .insertInto('module_groups')
      .values({ company_id: this.ctx.companyId, module_id: moduleId, name: values.name!, add_order: values.add_order ?? 'first', force_limits: values.force_limits ?? 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.assign(row.id, values.module_rows ?? []);
    return row.id;
  }

  @callable({
    verb: 'PUT',
    params: [int('module_group_id'), object('vars')],
    returns: id({ description: 'The module group id.' }),
    description: 'Change any of vars[name], vars[add_order], vars[force_limits]; vars[module_rows][] replaces its rows when given. Returns its id.',
  })
  async editGroup(moduleGroupId: number, vars: Record<string, unknown>) {
    const group = await this.find(moduleGroupId);
    if (!group) throw TallyError.invalid({ module_group_id: { exists: 'Invalid module group ID.' } });
    const values = await this.check(group.module_id, vars, true);
    const { module_rows: rows, ...columns } = values;
    if (Object.keys(columns).length) await this.ctx.db.updateTable('module_groups').set(columns).where('id', '=', moduleGroupId).execute();
    if (rows) await this.assign(moduleGroupId, rows);
    return moduleGroupId;
  }

  @callable({ verb: 'DELETE', params: [int('module_group_id')], returns: nothing(), description: "Remove a module group (its rows stay). A group that is not the company's is a no-op." })
  async deleteGroup(moduleGroupId: number) {
    if (!(await this.find(moduleGroupId))) return null;
    await this.ctx.db.deleteFrom('module_row_groups').where('module_group_id', '=', moduleGroupId).execute();
    await this.ctx.db.deleteFrom('module_groups').where('id', '=', moduleGroupId).execute();
    return null;
  }

  @callable({ verb: 'GET', params: [int('module_group_id')], returns: orFalse(MODULE_GROUP), description: 'One module group with its rows, or false.' })
  async getGroup(moduleGroupId: number) {
    const group = await this.find(moduleGroupId);
    return group ? this.present(group) : (false as const);
  }

  @callable({ verb: 'GET', params: [int('module_id')], returns: MODULE_GROUPS, description: "The module's groups with their rows; another company's module has none." })
  async getGroups(moduleId: number) {
    if (!(await findModule(this.ctx, moduleId))) return [];
    const groups = await this.groups().where('module_id', '=', moduleId).orderBy('id').execute();
    return Promise.all(groups.map((group) => this.present(group)));
  }

  private groups() {
    return this.ctx.db.selectFrom('module_groups').select(['id', 'module_id', 'name', 'add_order', 'force_limits']).where('company_id', '=', this.ctx.companyId);
  }

  private find(moduleGroupId: number) {
    return this.groups().where('id', '=', moduleGroupId).executeTakeFirst();
  }

  private async present(group: { id: number; module_id: number; name: string; add_order: string; force_limits: number }) {
    const store = new ModuleRowStore(this.ctx.db, this.ctx.companyId, this.ctx.systemKey);
    const rows = await store.rows(group.module_id, group.id);
    return { ...group, force_limits: Number(group.force_limits), rows: rows.map((row) => store.present(row)) };
  }

  /** The group's vars, every failing rule named at once; module_rows must be rows of the same module. */
  private async check(moduleId: number, vars: Record<string, unknown>, editing: boolean) {
    const errors: FieldErrors = {};
    const values: { name?: string; add_order?: string; force_limits?: number; module_rows?: number[] } = {};
    if (!editing || vars.name !== undefined) {
      if (typeof vars.name !== 'string' || !vars.name.trim()) errors.name = { empty: 'Please enter a name for this group.' };
      else if (vars.name.trim().length > 128) errors.name = { length: 'The name may be at most 128 characters.' };
      else values.name = vars.name.trim();
    }
    if (vars.add_order !== undefined) {
      if (!is.oneOf(ADD_ORDERS)(vars.add_order)) errors.add_order = { format: 'The add order must be first or roundrobin.' };
      else values.add_order = String(vars.add_order);
    }
    if (vars.force_limits !== undefined) {
      if (!['0', '1', 0, 1].includes(vars.force_limits as never)) errors.force_limits = { valid: 'force_limits must be 0 or 1.' };
      else values.force_limits = Number(vars.force_limits);
    }
    if (vars.module_rows !== undefined && vars.module_rows !== '') {
      const given = Array.isArray(vars.module_rows) ? vars.module_rows : [vars.module_rows];
      const own = new Set((await new ModuleRowStore(this.ctx.db, this.ctx.companyId, this.ctx.systemKey).rows(moduleId)).map((r) => r.id));
      const ids = given.map((v) => (is.integer(v) ? Number(v) : NaN));
      if (ids.some((rowId) => !own.has(rowId))) errors['module_rows[]'] = { valid: 'Every module row must be a row of this module.' };
      else values.module_rows = [...new Set(ids)];
    } else if (vars.module_rows === '') values.module_rows = [];
    const unknown = Object.keys(vars).filter((key) => !['name', 'add_order', 'force_limits', 'module_rows', 'module_id'].includes(key));
    for (const key of unknown) errors[key] = { unknown: `A module group has no "${key}": it takes name, module_rows, add_order and force_limits.` };
    if (Object.keys(errors).length) throw TallyError.invalid(errors);
    return values;
  }

  private async assign(moduleGroupId: number, rows: readonly number[]) {
    await this.ctx.db.deleteFrom('module_row_groups').where('module_group_id', '=', moduleGroupId).execute();
    for (const rowId of rows) await this.ctx.db.insertInto('module_row_groups').values({ module_group_id: moduleGroupId, module_row_id: rowId }).execute();
  }
}
