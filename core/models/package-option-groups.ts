import { readsOwnCompany } from '../identity/tenancy';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { int as count, nothing, orFalse } from '../kernel/shape';
import { PACKAGE_OPTION_GROUP, PACKAGE_OPTION_GROUP_ADD, PACKAGE_OPTION_GROUP_EDIT, PACKAGE_OPTION_GROUPS } from './package-options.fields';
import { is } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { int, list, object } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { pageOffset } from '../billing/values';
import { ordered, readOrder } from '../billing/ordering';
import { PAGE_SIZE } from '../kernel/paging';

const ORDER: Record<string, string> = { name: 'name', id: 'id' };
const invalidGroup = () => TallyError.invalid({ option_group_id: { exists: 'Invalid package option group ID.' } });

/**
 * The reference's PackageOptionGroups: named sets of package options (package_options vars[groups])
 * assigned to packages (packages vars[option_groups][]); a package offers the options of its groups.
 */
@model('package_option_groups')
export class PackageOptionGroups {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    returns: count({ description: 'The new option group id.' }),
    vars: PACKAGE_OPTION_GROUP_ADD,
    verb: 'POST',
    params: [object('vars', { default: {} })],
    description: 'Add an option group: vars[name], optional vars[description]. Returns its id.',
  })
  async add(vars: Record<string, unknown>) {
    const values = this.read(vars, false);
    const row = await this.ctx.db
      .insertInto('package_option_groups')
      .values({ company_id: this.ctx.companyId, name: values.name!, description: values.description ?? null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  @callable({
    returns: PACKAGE_OPTION_GROUP,
    vars: PACKAGE_OPTION_GROUP_EDIT,
    verb: 'PUT',
    params: [int('option_group_id'), object('vars')],
    description: "Change a group's name or description. Returns it.",
  })
  async edit(groupId: number, vars: Record<string, unknown>) {
    if (!(await this.get(groupId))) throw invalidGroup();
    const values = this.read(vars, true);
    if (Object.keys(values).length) await this.ctx.db.updateTable('package_option_groups').set(values).where('id', '=', groupId).execute();
    return this.get(groupId);
  }

  @callable({
    returns: nothing(),
    verb: 'DELETE',
    params: [int('option_group_id')],
    description: 'Delete a group: its options stay, its packages no longer offer them through it (services keep the options they took).',
  })
  async delete(groupId: number) {
    if (!(await this.get(groupId))) throw invalidGroup();
    await this.ctx.db.deleteFrom('package_option_group_options').where('option_group_id', '=', groupId).execute();
    await this.ctx.db.deleteFrom('package_option_group_packages').where('option_group_id', '=', groupId).execute();
    await this.ctx.db.deleteFrom('package_option_groups').where('id', '=', groupId).execute();
    return null;
  }

  @callable({ returns: orFalse(PACKAGE_OPTION_GROUP), verb: 'GET', params: [int('option_group_id')], description: 'A group with its option ids (in order) and package ids, or false.' })
  async get(groupId: number) {
    const row = await this.query().where('id', '=', groupId).executeTakeFirst();
    return row ? (await this.present([row]))[0] : false;
  }

  @callable({ returns: PACKAGE_OPTION_GROUPS, verb: 'GET', params: [int('company_id', { default: null })], description: "Every option group of the company (another company's id answers none)." })
  async getAll(companyId: number | null) {
    if (!readsOwnCompany(this.ctx, companyId)) return [];
    return this.present(await this.query().orderBy('name').orderBy('id').execute());
  }

  @callable({
    returns: PACKAGE_OPTION_GROUPS,
    verb: 'GET',
    params: [int('page', { default: 1 }), object('order_by', { default: { name: 'ASC' } })],
    description: `One page (25) of option groups; order_by[field]=ASC|DESC over ${Object.keys(ORDER).join(', ')}.`,
  })
  async getList(page: number, orderBy: unknown) {
    const query = ordered(this.query(), readOrder(orderBy, ORDER), 'id');
    return this.present(await query.limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute());
  }

  @callable({ returns: count(), verb: 'GET', description: 'How many option groups the company has.' })
  async getListCount() {
    const row = await this.query()
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  @callable({
    returns: nothing(),
    verb: 'POST',
    params: [int('option_group_id'), list('option_ids')],
    description: "Order a group's options: option_ids[] lists every option of the group, first to last.",
  })
  async orderOptions(groupId: number, optionIds: unknown) {
    const group = await this.get(groupId);
    if (!group) throw invalidGroup();
    const ids = (Array.isArray(optionIds) ? optionIds : []).map((v) => (is.integer(v) ? Number(v) : NaN));
    if (ids.length !== group.options.length || !group.options.every((id) => ids.includes(id)))
      throw TallyError.invalid({ option_ids: { valid: 'List every option of the group once, in the order wanted.' } });
    for (const [order, id] of ids.entries())
      await this.ctx.db.updateTable('package_option_group_options').set({ sort_order: order }).where('option_group_id', '=', groupId).where('option_id', '=', id).execute();
    return null;
  }

  private read(vars: Record<string, unknown>, editing: boolean) {
    const values: { name?: string; description?: string | null } = {};
    if (!editing || vars.name !== undefined) {
      if (!is.present(vars.name) || String(vars.name).trim().length > 255) throw TallyError.invalid({ name: { empty: 'Please enter a group name (255 characters at most).' } });
      values.name = String(vars.name).trim();
    }
    if (vars.description !== undefined) values.description = is.present(vars.description) ? String(vars.description) : null;
    return values;
  }

  private async present(rows: ReadonlyArray<{ id: number; company_id: number; name: string; description: string | null }>) {
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id);
    const options = await this.ctx.db
      .selectFrom('package_option_group_options')
      .select(['option_group_id', 'option_id'])
      .where('option_group_id', 'in', ids)
      .orderBy('sort_order')
      .orderBy('option_id')
      .execute();
    const packages = await this.ctx.db.selectFrom('package_option_group_packages').select(['option_group_id', 'package_id']).where('option_group_id', 'in', ids).orderBy('package_id').execute();
    return rows.map((row) => ({
      ...row,
      options: options.filter((o) => o.option_group_id === row.id).map((o) => o.option_id),
      packages: packages.filter((p) => p.option_group_id === row.id).map((p) => p.package_id),
    }));
  }

  private query() {
    return this.ctx.db.selectFrom('package_option_groups').select(['id', 'company_id', 'name', 'description']).where('company_id', '=', this.ctx.companyId);
  }
}
