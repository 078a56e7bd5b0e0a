import { readsOwnCompany } from '../identity/tenancy';
import { PackageProration } from './packages/package-proration';
import { PackagePricingHelpers } from './packages/package-pricing-helpers';
import { sql } from 'kysely';
import { containsPattern } from '../db/contains-pattern';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { int as count, nothing, orFalse } from '../kernel/shape';
import { LABELS, PACKAGE, PACKAGE_ADD, PACKAGE_EDIT, PACKAGES } from './packages.fields';
import { model } from '../kernel/model';
import { any, bool, int, object, string } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { formatUtc } from '../kernel/timestamps';
import { pageOffset } from '../billing/values';
import { ordered, readFilters, readOrder } from '../billing/ordering';
import { PACKAGE_STATUSES, packageQuery, presentPackages, readPackage, writeOptionGroups } from './packages/package-store';
import { readPackageVars } from './packages/package-vars';
import { PRICING_COLUMNS } from '../billing/pricing-rows';
import { PAGE_SIZE } from '../kernel/paging';
import { emit } from '../events/emit';

// A package's display code is its id (Tally keeps no package number format).
const ORDER: Record<string, string> = { id_code: 'id', id: 'id', name: 'name', status: 'status', module: 'module', date_added: 'date_added' };
const GROUP_TYPES = ['standard', 'addon'];
const invalidPackage = () => TallyError.invalid({ package_id: { exists: 'Invalid package ID.' } });

/**
 * What a company sells: a package has a name, a description, a status, optionally a module (an
 * installed module extension that provisions its services, with per-package settings in `meta`),
 * pricing rows (term × period in a currency with setup and cancellation fees), a taxable flag,
 * quantity limits, a pro rata day, and the package groups it is offered in.
 */
@model('packages', { facets: [PackageProration, PackagePricingHelpers] })
export class Packages {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    returns: count({ description: 'The new package id.' }),
    vars: PACKAGE_ADD,
    verb: 'POST',
    params: [object('vars', { default: {} })],
    description:
      'Add a package: vars[names][0][name] (or vars[name]), vars[pricing][i][term|period|price|price_renews|setup_fee|cancel_fee|currency], optional vars[descriptions][0][text], vars[module_id], vars[meta][...] (module settings), vars[status] (active, inactive, restricted), vars[taxable], vars[qty], vars[client_qty], vars[prorata_day] and vars[prorata_cutoff] (1-28), vars[groups][], vars[option_groups][] (package option groups: the options it offers). Returns its id.',
  })
  async add(vars: Record<string, unknown>) {
    const read = await readPackageVars(this.ctx.db, this.ctx.companyId, vars, false);
    if (Object.keys(read.errors).length) throw TallyError.invalid(read.errors);
    const row = await this.ctx.db
      .insertInto('packages')
      .values({
        company_id: this.ctx.companyId,
        name: read.changes.name!,
        description: null,
        module: null,
        module_settings: '{}',
        status: 'active',
        taxable: 0,
        qty: null,
        client_qty: null,
        prorata_day: null,
        prorata_cutoff: null,
        ...read.changes,
        date_added: formatUtc(new Date()),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.writePricingAndGroups(row.id, read.pricing, read.groups);
    if (read.optionGroups) await writeOptionGroups(this.ctx.db, row.id, read.optionGroups);
    await emit(this.ctx, 'Packages.add', await readPackage(this.ctx.db, this.ctx.companyId, row.id));
    return row.id;
  }

  @callable({
    returns: PACKAGE,
    vars: PACKAGE_EDIT,
    verb: 'PUT',
    params: [int('package_id'), object('vars')],
    description:
      'Change a package: any field of add; vars[pricing][i][id] edits that row (an empty term removes it), a row without id is added; vars[groups] replaces the groups, vars[option_groups] the option groups. Returns the package.',
  })
  async edit(packageId: number, vars: Record<string, unknown>) {
    if (!(await readPackage(this.ctx.db, this.ctx.companyId, packageId))) throw invalidPackage();
    const existing = await this.ctx.db.selectFrom('pricings').select(PRICING_COLUMNS).where('company_id', '=', this.ctx.companyId).where('package_id', '=', packageId).execute();
    const read = await readPackageVars(
      this.ctx.db,
      this.ctx.companyId,
      vars,
      true,
      existing.map((p) => ({ ...p, period: p.period as never })),
    );
    if (Object.keys(read.errors).length) throw TallyError.invalid(read.errors);
    if (Object.keys(read.changes).length) await this.ctx.db.updateTable('packages').set(read.changes).where('id', '=', packageId).execute();
    await this.writePricingAndGroups(packageId, read.pricing, read.groups);
    if (read.optionGroups) await writeOptionGroups(this.ctx.db, packageId, read.optionGroups);
    await emit(this.ctx, 'Packages.edit', await readPackage(this.ctx.db, this.ctx.companyId, packageId));
    return readPackage(this.ctx.db, this.ctx.companyId, packageId);
  }

  @callable({
    returns: nothing(),
    verb: 'DELETE',
    params: [int('package_id'), bool('remove_services', { default: false })],
    description:
      "Delete a package that no service uses. remove_services=true (the reference then deletes the package's canceled services) is refused: Tally keeps services, and their invoices' history, until each is deleted.",
  })
  async delete(packageId: number, removeServices: boolean) {
    if (removeServices)
      throw TallyError.invalid({
        remove_services: { unsupported: 'Tally does not support remove_services: it never deletes services with their package. Delete the package once no service uses it.' },
      });
    const deleted = await readPackage(this.ctx.db, this.ctx.companyId, packageId);
    if (!deleted) throw invalidPackage();
    const used = await this.ctx.db
      .selectFrom('services')
      .innerJoin('pricings', 'pricings.id', 'services.pricing_id')
      .select('services.id')
      .where('pricings.package_id', '=', packageId)
      .limit(1)
      .executeTakeFirst();
    if (used) throw TallyError.invalid({ package_id: { in_use: 'Services use this package; cancel and delete them first.' } });
    await this.ctx.db.deleteFrom('package_group_packages').where('package_id', '=', packageId).execute();
    await writeOptionGroups(this.ctx.db, packageId, []);
    await this.ctx.db.deleteFrom('coupon_packages').where('package_id', '=', packageId).execute();
    await this.ctx.db.deleteFrom('client_packages').where('package_id', '=', packageId).execute();
    await this.ctx.db.deleteFrom('pricings').where('package_id', '=', packageId).execute();
    await this.ctx.db.deleteFrom('packages').where('id', '=', packageId).execute();
    await emit(this.ctx, 'Packages.delete', deleted);
    return null;
  }

  @callable({ returns: orFalse(PACKAGE), verb: 'GET', params: [int('package_id')], description: 'A package with its pricing, module settings and groups, or false.' })
  get(packageId: number) {
    return readPackage(this.ctx.db, this.ctx.companyId, packageId);
  }

  @callable({ returns: orFalse(PACKAGE), verb: 'GET', params: [int('package_pricing_id')], description: 'The package a pricing row belongs to, or false.' })
  async getByPricingId(pricingId: number) {
    const row = await this.ctx.db.selectFrom('pricings').select('package_id').where('company_id', '=', this.ctx.companyId).where('id', '=', pricingId).executeTakeFirst();
    return row?.package_id ? readPackage(this.ctx.db, this.ctx.companyId, row.package_id) : false;
  }

  @callable({
    returns: PACKAGES,
    verb: 'GET',
    params: [
      int('company_id', { default: null }),
      object('order', { default: { name: 'ASC' } }),
      string('status', { default: null }),
      string('type', { default: null }),
      any('filters', { default: [] }),
    ],
    description: `The company's packages, optionally of one status, or (type standard or addon) in a package group of that type; order[field]=ASC|DESC over ${Object.keys(ORDER).join(', ')}; no filters are known (one given is a 400 naming it).`,
  })
  async getAll(companyId: number | null, order: unknown, status: string | null, type: string | null, filters: unknown) {
    if (type !== null && !GROUP_TYPES.includes(type)) throw TallyError.invalid({ type: { format: 'The type must be standard or addon.' } });
    let query = this.filtered(status, filters);
    if (type !== null) {
      query = query.where('id', 'in', (eb) =>
        eb
          .selectFrom('package_group_packages')
          .innerJoin('package_groups', 'package_groups.id', 'package_group_packages.package_group_id')
          .select('package_group_packages.package_id')
          .where('package_groups.type', '=', type),
      );
    }
    const sorted = ordered(query, readOrder(order, ORDER, 'order'), 'id');
    if (!readsOwnCompany(this.ctx, companyId)) return [];
    return presentPackages(this.ctx.db, this.ctx.companyId, await sorted.execute());
  }

  @callable({
    returns: PACKAGES,
    verb: 'GET',
    params: [int('page', { default: 1 }), object('order_by', { default: { id_code: 'asc' } }), string('status', { default: null }), any('filters', { default: [] })],
    description: "One page (25) of packages, optionally of one status; order_by as getAll's order.",
  })
  async getList(page: number, orderBy: unknown, status: string | null, filters: unknown) {
    const rows = await ordered(this.filtered(status, filters), readOrder(orderBy, ORDER), 'id').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
    return presentPackages(this.ctx.db, this.ctx.companyId, rows);
  }

  @callable({ returns: count(), verb: 'GET', params: [string('status', { default: null }), any('filters', { default: [] })], description: 'How many packages (of one status).' })
  async getListCount(status: string | null, filters: unknown) {
    const row = await this.filtered(status, filters)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  @callable({ returns: PACKAGES, verb: 'GET', params: [string('query'), int('page', { default: 1 })], description: 'One page (25) of the packages whose name contains the query.' })
  async search(query: string, page: number) {
    const rows = await this.searched(query).orderBy('id').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
    return presentPackages(this.ctx.db, this.ctx.companyId, rows);
  }

  @callable({ returns: count(), verb: 'GET', params: [string('query')], description: 'How many packages search finds, over all its pages.' })
  async getSearchCount(query: string) {
    const row = await this.searched(query)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  @callable({
    returns: PACKAGES,
    verb: 'GET',
    params: [int('package_group_id'), string('status', { default: null }), any('filters', { default: [] })],
    description: 'The packages of a package group.',
  })
  async getAllPackagesByGroup(groupId: number, status: string | null, filters: unknown) {
    const rows = await this.filtered(status, filters)
      .where('id', 'in', (eb) => eb.selectFrom('package_group_packages').select('package_id').where('package_group_id', '=', groupId))
      .orderBy('name')
      .execute();
    // In the group's order (packages/orderPackages), by name where none was set.
    const order = await this.ctx.db.selectFrom('package_group_packages').select(['package_id', 'sort_order']).where('package_group_id', '=', groupId).execute();
    const place = new Map(order.map((o) => [o.package_id, Number(o.sort_order)]));
    return presentPackages(
      this.ctx.db,
      this.ctx.companyId,
      [...rows].sort((a, b) => (place.get(a.id) ?? 0) - (place.get(b.id) ?? 0)),
    );
  }

  @callable({ returns: LABELS, verb: 'GET', description: 'The package statuses and their names.' })
  getStatusTypes() {
    return Object.fromEntries(PACKAGE_STATUSES.map((s) => [s, s.charAt(0).toUpperCase() + s.slice(1)]));
  }

  private searched(query: string) {
    return this.filtered(null).where(sql`lower(name)`, 'like', containsPattern(query));
  }

  private filtered(status: string | null, filters: unknown = []) {
    readFilters(filters, []);
    if (status !== null && !PACKAGE_STATUSES.includes(status as never)) throw TallyError.invalid({ status: { format: 'The status must be active, inactive or restricted.' } });
    const query = packageQuery(this.ctx.db, this.ctx.companyId);
    return status === null ? query : query.where('status', '=', status);
  }

  private async writePricingAndGroups(packageId: number, pricing: Awaited<ReturnType<typeof readPackageVars>>['pricing'], groups: number[] | null) {
    for (const change of pricing) {
      if (change.id === null)
        await this.ctx.db
          .insertInto('pricings')
          .values({ company_id: this.ctx.companyId, package_id: packageId, ...change.values! })
          .execute();
      else if (change.values) await this.ctx.db.updateTable('pricings').set(change.values).where('id', '=', change.id).execute();
      else {
        const used = await this.ctx.db.selectFrom('services').select('id').where('pricing_id', '=', change.id).limit(1).executeTakeFirst();
        if (used) throw TallyError.invalid({ pricing: { in_use: `Services use pricing ${change.id}; it cannot be removed.` } });
        await this.ctx.db.deleteFrom('pricings').where('id', '=', change.id).execute();
      }
    }
    if (groups === null) return;
    await this.ctx.db.deleteFrom('package_group_packages').where('package_id', '=', packageId).execute();
    for (const groupId of new Set(groups)) await this.ctx.db.insertInto('package_group_packages').values({ package_group_id: groupId, package_id: packageId }).execute();
  }
}
