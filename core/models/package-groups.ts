import { readsOwnCompany } from '../identity/tenancy';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { int as count, nothing, orFalse } from '../kernel/shape';
import { LABELS, PACKAGE_GROUP, PACKAGE_GROUP_ADD, PACKAGE_GROUP_EDIT, PACKAGE_GROUP_ROWS } from './package-groups.fields';
import { is } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { any, int, object, string } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { pageOffset } from '../billing/values';
import { ordered, readFilters, readOrder } from '../billing/ordering';
import { PAGE_SIZE } from '../kernel/paging';

const TYPES = ['standard', 'addon'] as const;
const ORDER: Record<string, string> = { name: 'name', id: 'id', type: 'type' };
const invalidGroup = () => TallyError.invalid({ package_group_id: { exists: 'Invalid package group ID.' } });

/** Groups packages are offered in: standard groups, and addon groups whose packages attach to a parent service. */
@model('package_groups')
export class PackageGroups {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    returns: count({ description: 'The new group id.' }),
    vars: PACKAGE_GROUP_ADD,
    verb: 'POST',
    params: [object('vars', { default: {} })],
    description:
      'Add a group: vars[names][0][name] (or vars[name]), optional vars[descriptions][0][description] (or vars[description]), vars[type] (standard, addon; standard), vars[parents][] (an addon group: the standard groups it attaches to). Returns its id.',
  })
  async add(vars: Record<string, unknown>) {
    const values = this.read(vars, false);
    const parents = await this.readParents(vars, values.type ?? 'standard');
    const row = await this.ctx.db
      .insertInto('package_groups')
      .values({ company_id: this.ctx.companyId, name: values.name!, description: values.description ?? null, type: values.type ?? 'standard' })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (parents) await this.setParents(row.id, parents);
    return row.id;
  }

  @callable({
    returns: PACKAGE_GROUP,
    vars: PACKAGE_GROUP_EDIT,
    verb: 'PUT',
    params: [int('package_group_id'), object('vars')],
    description: "Change a group's name, description, type or (an addon group's) vars[parents][]. Returns it.",
  })
  async edit(groupId: number, vars: Record<string, unknown>) {
    const group = await this.get(groupId);
    if (!group) throw invalidGroup();
    const values = this.read(vars, true);
    const type = values.type ?? group.type;
    const parents = await this.readParents(vars, type, groupId);
    if (Object.keys(values).length) await this.ctx.db.updateTable('package_groups').set(values).where('id', '=', groupId).execute();
    // A group that stops being an addon group attaches to nothing.
    if (parents || type !== 'addon') await this.setParents(groupId, parents ?? []);
    return this.get(groupId);
  }

  @callable({ returns: nothing(), verb: 'DELETE', params: [int('package_group_id')], description: 'Delete a group (its packages stay).' })
  async delete(groupId: number) {
    if (!(await this.get(groupId))) throw invalidGroup();
    await this.ctx.db.deleteFrom('package_group_packages').where('package_group_id', '=', groupId).execute();
    await this.ctx.db
      .deleteFrom('package_group_parents')
      .where((eb) => eb.or([eb('group_id', '=', groupId), eb('parent_group_id', '=', groupId)]))
      .execute();
    await this.ctx.db.deleteFrom('package_groups').where('id', '=', groupId).execute();
    return null;
  }

  @callable({ returns: orFalse(PACKAGE_GROUP), verb: 'GET', params: [int('package_group_id')], description: 'A group with the ids of its packages, or false.' })
  async get(groupId: number) {
    const row = await this.query().where('id', '=', groupId).executeTakeFirst();
    if (!row) return false;
    const packages = await this.ctx.db.selectFrom('package_group_packages').select('package_id').where('package_group_id', '=', groupId).orderBy('sort_order').orderBy('package_id').execute();
    const parents = await this.ctx.db.selectFrom('package_group_parents').select('parent_group_id').where('group_id', '=', groupId).orderBy('parent_group_id').execute();
    return { ...row, names: [{ lang: 'en_us', name: row.name }], packages: packages.map((p) => p.package_id), parents: parents.map((p) => p.parent_group_id) };
  }

  @callable({
    returns: PACKAGE_GROUP_ROWS,
    verb: 'GET',
    params: [int('company_id', { default: null }), string('type', { default: null }), object('order_by', { default: { name: 'asc' } })],
    description: `The company's groups, optionally of one type; order_by[field]=ASC|DESC over ${Object.keys(ORDER).join(', ')}.`,
  })
  async getAll(companyId: number | null, type: string | null, orderBy: unknown) {
    const query = ordered(this.filtered(type), readOrder(orderBy, ORDER), 'id');
    return readsOwnCompany(this.ctx, companyId) ? query.execute() : [];
  }

  @callable({
    returns: PACKAGE_GROUP_ROWS,
    verb: 'GET',
    params: [int('company_id', { default: null }), int('page', { default: 1 }), string('type', { default: null }), object('order_by', { default: { name: 'asc' } }), any('filters', { default: [] })],
    description: 'One page (25) of groups, ordered as getAll; no filters are known (one given is a 400 naming it).',
  })
  async getList(companyId: number | null, page: number, type: string | null, orderBy: unknown, filters: unknown) {
    readFilters(filters, []);
    const query = ordered(this.filtered(type), readOrder(orderBy, ORDER), 'id');
    if (!readsOwnCompany(this.ctx, companyId)) return [];
    return query.limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
  }

  @callable({
    returns: count(),
    verb: 'GET',
    params: [int('company_id', { default: null }), string('type', { default: null }), any('filters', { default: [] })],
    description: 'How many groups (of one type).',
  })
  async getListCount(companyId: number | null, type: string | null, filters: unknown) {
    readFilters(filters, []);
    const query = this.filtered(type);
    if (!readsOwnCompany(this.ctx, companyId)) return 0;
    const row = await query
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  @callable({
    returns: count(),
    verb: 'GET',
    params: [int('company_id', { default: null }), string('type', { default: 'standard' }), any('filters', { default: [] })],
    description: 'How many groups of a type.',
  })
  getTypeCount(companyId: number | null, type: string, filters: unknown) {
    return this.getListCount(companyId, type, filters);
  }

  @callable({ returns: LABELS, verb: 'GET', description: 'The group types and their names.' })
  getTypes() {
    return { standard: 'Standard', addon: 'Add-on' };
  }

  private read(vars: Record<string, unknown>, editing: boolean) {
    const names = Array.isArray(vars.names) ? vars.names : vars.names && typeof vars.names === 'object' ? Object.values(vars.names) : [];
    const name = names.length ? (names[0] as Record<string, unknown>)?.name : vars.name;
    const descriptions = Array.isArray(vars.descriptions) ? vars.descriptions : vars.descriptions && typeof vars.descriptions === 'object' ? Object.values(vars.descriptions) : [];
    const description = descriptions.length ? (descriptions[0] as Record<string, unknown>)?.description : vars.description;
    const values: { name?: string; description?: string | null; type?: string } = {};
    const errors: Record<string, Record<string, string>> = {};
    if (!editing || name !== undefined) {
      if (!is.present(name) || String(name).length > 255) errors['names[0][name]'] = { empty: 'Please enter a group name (255 characters at most).' };
      else values.name = String(name).trim();
    }
    if (description !== undefined) values.description = is.present(description) ? String(description) : null;
    if (vars.type !== undefined) {
      if (!is.oneOf(TYPES)(vars.type)) errors.type = { format: 'The type must be standard or addon.' };
      else values.type = String(vars.type);
    }
    if (Object.keys(errors).length) throw TallyError.invalid(errors);
    return values;
  }

  /**
   * vars[parents][]: the standard groups of the company an addon group attaches to; null when not
   * given. Only an addon group has parents (another type naming some is a 400, not ignored).
   */
  private async readParents(vars: Record<string, unknown>, type: string, self?: number): Promise<number[] | null> {
    if (vars.parents === undefined) return null;
    const given = Array.isArray(vars.parents) ? vars.parents : vars.parents && typeof vars.parents === 'object' ? Object.values(vars.parents) : vars.parents === '' ? [] : [vars.parents];
    if (given.length && type !== 'addon') throw TallyError.invalid({ parents: { type: 'Only an addon group has parent groups.' } });
    const ids = given.map((v) => (is.integer(v) ? Number(v) : NaN));
    const candidates = ids.filter((id) => !Number.isNaN(id) && id !== self);
    const found = candidates.length ? await this.query().where('type', '=', 'standard').where('id', 'in', candidates).execute() : [];
    if (found.length !== new Set(ids).size) throw TallyError.invalid({ parents: { exists: 'Every parent must be a standard package group of the company.' } });
    return [...new Set(ids)];
  }

  private async setParents(groupId: number, parents: readonly number[]) {
    await this.ctx.db.deleteFrom('package_group_parents').where('group_id', '=', groupId).execute();
    for (const parent of parents) await this.ctx.db.insertInto('package_group_parents').values({ group_id: groupId, parent_group_id: parent }).execute();
  }

  private filtered(type: string | null) {
    if (type !== null && !TYPES.includes(type as never)) throw TallyError.invalid({ type: { format: 'The type must be standard or addon.' } });
    const query = this.query();
    return type === null ? query : query.where('type', '=', type);
  }

  private query() {
    return this.ctx.db.selectFrom('package_groups').select(['id', 'company_id', 'name', 'description', 'type']).where('company_id', '=', this.ctx.companyId);
  }
}
