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
    description: 'Add a group: vars[names][0][name] (or vars[name]), optional vars[descriptions][0][description] (or vars[description]), vars[type] (standard, addon; standard). Returns its id.',
  })
  async add(vars: Record<string, unknown>) {
    const values = this.read(vars, false);
    const row = await this.ctx.db
      .insertInto('package_groups')
      .values({ company_id: this.ctx.companyId, name: values.name!, description: values.description ?? null, type: values.type ?? 'standard' })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  @callable({
    returns: PACKAGE_GROUP,
    vars: PACKAGE_GROUP_EDIT,
    verb: 'PUT',
    params: [int('package_group_id'), object('vars')],
    description: "Change a group's name, description or type. Returns it.",
  })
  async edit(groupId: number, vars: Record<string, unknown>) {
    if (!(await this.get(groupId))) throw invalidGroup();
    const values = this.read(vars, true);
    if (Object.keys(values).length) await this.ctx.db.updateTable('package_groups').set(values).where('id', '=', groupId).execute();
    return this.get(groupId);
  }

  @callable({ returns: nothing(), verb: 'DELETE', params: [int('package_group_id')], description: 'Delete a group (its packages stay).' })
  async delete(groupId: number) {
    if (!(await this.get(groupId))) throw invalidGroup();
    await this.ctx.db.deleteFrom('package_group_packages').where('package_group_id', '=', groupId).execute();
    await this.ctx.db.deleteFrom('package_groups').where('id', '=', groupId).execute();
    return null;
  }

  @callable({ returns: orFalse(PACKAGE_GROUP), verb: 'GET', params: [int('package_group_id')], description: 'A group with the ids of its packages, or false.' })
  async get(groupId: number) {
    const row = await this.query().where('id', '=', groupId).executeTakeFirst();
    if (!row) return false;
    const packages = await this.ctx.db.selectFrom('package_group_packages').select('package_id').where('package_group_id', '=', groupId).orderBy('package_id').execute();
    return { ...row, names: [{ lang: 'en_us', name: row.name }], packages: packages.map((p) => p.package_id) };
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

  private filtered(type: string | null) {
    if (type !== null && !TYPES.includes(type as never)) throw TallyError.invalid({ type: { format: 'The type must be standard or addon.' } });
    const query = this.query();
    return type === null ? query : query.where('type', '=', type);
  }

  private query() {
    return this.ctx.db.selectFrom('package_groups').select(['id', 'company_id', 'name', 'description', 'type']).where('company_id', '=', this.ctx.companyId);
  }
}
