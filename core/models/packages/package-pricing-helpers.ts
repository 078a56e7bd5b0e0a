import { readsOwnCompany } from '../../identity/tenancy';
import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { FieldErrors } from '../../kernel/errors';
import { facet } from '../../kernel/model';
import { parseDecimal, toStored } from '../../kernel/money';
import { any, bool, int, list, string } from '../../kernel/parameter';
import { int as count, mapOf, nothing, orNull, string as text } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { convertAmount } from '../../billing/currency-conversion';
import { findCurrency } from '../../billing/find-currency';
import { findInstalledModule } from '../../billing/module-row-store';
import { PERIODS } from '../../billing/renew-dates';
import { periodNames } from '../../billing/term-format';
import { PACKAGES } from '../packages.fields';
import { PACKAGE_GROUP_ROWS } from '../package-groups.fields';
import { packageQuery, presentPackages } from './package-store';

const GROUP_TYPES = ['standard', 'addon'];
/** The amounts of a pricing convertPricing converts; the others are kept as given. */
const AMOUNTS = ['price', 'price_renews', 'price_transfer', 'setup_fee', 'cancel_fee'] as const;

/** The reference's pricing and catalogue helpers of Packages: period names, terms, conversion, groups, upgrade targets. */
@facet('packages')
export class PackagePricingHelpers {
  constructor(private readonly ctx: CallContext) {}

  @callable({ verb: 'GET', params: [bool('plural', { default: false })], returns: mapOf(text()), description: 'The pricing periods and their names (as pricings/getPeriods).' })
  getPricingPeriods(plural: boolean) {
    return periodNames(PERIODS, plural);
  }

  @callable({ verb: 'GET', params: [int('term'), string('period')], returns: count(), description: 'The term as the reference stores it: 0 for one-time pricing, else the term.' })
  formatPricingTerm(term: number, period: string) {
    return period === 'onetime' ? 0 : term;
  }

  @callable({
    verb: 'GET',
    params: [any('pricing'), string('currency'), bool('allow_conversion')],
    returns: orNull(mapOf(text())),
    description:
      'A pricing (pricing[currency], pricing[price], price_renews, price_transfer, setup_fee, cancel_fee) in another currency of the company, by their exchange rates: the pricing itself when it is already in that currency, null when it is not and allow_conversion is false.',
  })
  async convertPricing(pricing: unknown, currency: string, allowConversion: boolean) {
    const given = pricing && typeof pricing === 'object' && !Array.isArray(pricing) ? (pricing as Record<string, unknown>) : null;
    if (!given || typeof given.currency !== 'string') throw TallyError.invalid({ 'pricing[currency]': { empty: 'Give the pricing with its currency: pricing[currency], pricing[price], ...' } });
    const code = currency.toUpperCase();
    if (given.currency.toUpperCase() === code) return given;
    if (!allowConversion) return null;
    const [from, to] = [await findCurrency(this.ctx.db, this.ctx.companyId, given.currency.toUpperCase()), await findCurrency(this.ctx.db, this.ctx.companyId, code)];
    const errors: FieldErrors = {};
    if (!from) errors['pricing[currency]'] = { exists: "The pricing's currency is not one of the company's currencies." };
    if (!to) errors.currency = { exists: "The currency is not one of the company's currencies." };
    const converted: Record<string, unknown> = { ...given, currency: code };
    for (const key of AMOUNTS) {
      if (given[key] === undefined || given[key] === null || given[key] === '') continue;
      const value = parseDecimal(given[key]);
      if (!value) errors[`pricing[${key}]`] = { format: `The ${key.replace('_', ' ')} must be a number.` };
      else if (from && to) converted[key] = toStored(convertAmount(value, from, to));
    }
    if (Object.keys(errors).length) throw TallyError.invalid(errors);
    return converted;
  }

  @callable({
    verb: 'GET',
    params: [int('company_id'), int('package_id', { default: null }), string('type', { default: null })],
    returns: PACKAGE_GROUP_ROWS,
    description: "The company's package groups by name, optionally only those holding package_id and of one type (standard, addon).",
  })
  async getAllGroups(companyId: number, packageId: number | null, type: string | null) {
    if (type !== null && !GROUP_TYPES.includes(type)) throw TallyError.invalid({ type: { format: 'The type must be standard or addon.' } });
    if (!readsOwnCompany(this.ctx, companyId)) return [];
    let query = this.ctx.db.selectFrom('package_groups').select(['id', 'company_id', 'name', 'description', 'type']).where('company_id', '=', this.ctx.companyId);
    if (type !== null) query = query.where('type', '=', type);
    if (packageId !== null) query = query.where('id', 'in', (eb) => eb.selectFrom('package_group_packages').select('package_group_id').where('package_id', '=', packageId));
    return query.orderBy('name').orderBy('id').execute();
  }

  @callable({
    verb: 'GET',
    params: [int('parent_group_id')],
    returns: PACKAGE_GROUP_ROWS,
    description: 'The addon package groups attached to the standard group parent_group_id (package_groups vars[parents][]), by name.',
  })
  getAllAddonGroups(parentGroupId: number) {
    return this.ctx.db
      .selectFrom('package_groups')
      .innerJoin('package_group_parents', 'package_group_parents.group_id', 'package_groups.id')
      .select(['package_groups.id', 'package_groups.company_id', 'package_groups.name', 'package_groups.description', 'package_groups.type'])
      .where('package_groups.company_id', '=', this.ctx.companyId)
      .where('package_groups.type', '=', 'addon')
      .where('package_group_parents.parent_group_id', '=', parentGroupId)
      .orderBy('package_groups.name')
      .orderBy('package_groups.id')
      .execute();
  }

  @callable({
    verb: 'POST',
    params: [int('package_group_id'), list('package_ids')],
    returns: nothing(),
    description:
      "Put the group's packages in the order of package_ids (each a package of the group; those not named follow in their order): package_groups/get and packages/getAllPackagesByGroup answer them so.",
  })
  async orderPackages(groupId: number, packageIds: unknown[]) {
    const group = await this.ctx.db.selectFrom('package_groups').select('id').where('company_id', '=', this.ctx.companyId).where('id', '=', groupId).executeTakeFirst();
    if (!group) throw TallyError.invalid({ package_group_id: { exists: 'Invalid package group ID.' } });
    const members = (await this.ctx.db.selectFrom('package_group_packages').select('package_id').where('package_group_id', '=', groupId).orderBy('sort_order').orderBy('package_id').execute()).map(
      (r) => r.package_id,
    );
    const named = packageIds.map((v) => (typeof v === 'string' || typeof v === 'number' ? Number(v) : NaN));
    if (named.some((id) => !members.includes(id)) || new Set(named).size !== named.length) {
      throw TallyError.invalid({ package_ids: { valid: 'Name each package of the group once; every id must be a package of the group.' } });
    }
    const order = [...named, ...members.filter((id) => !named.includes(id))];
    for (const [position, packageId] of order.entries()) {
      await this.ctx.db.updateTable('package_group_packages').set({ sort_order: position }).where('package_group_id', '=', groupId).where('package_id', '=', packageId).execute();
    }
    return null;
  }

  @callable({
    verb: 'GET',
    params: [int('package_id'), int('module_id'), string('type')],
    returns: PACKAGES,
    description:
      'The packages a service of package_id may move to: those sharing one of its package groups of that type (standard, addon) and provisioned by the module module_id, the package itself included, as the reference lists them.',
  })
  async getCompatiblePackages(packageId: number, moduleId: number, type: string) {
    if (!GROUP_TYPES.includes(type)) throw TallyError.invalid({ type: { format: 'The type must be standard or addon.' } });
    const module = await findInstalledModule(this.ctx.db, this.ctx.companyId, moduleId);
    if (!module) return [];
    const rows = await packageQuery(this.ctx.db, this.ctx.companyId)
      .where('module', '=', module.name)
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('package_group_packages as mine')
          .innerJoin('package_groups', 'package_groups.id', 'mine.package_group_id')
          .innerJoin('package_group_packages as theirs', 'theirs.package_group_id', 'mine.package_group_id')
          .select('theirs.package_id')
          .where('mine.package_id', '=', packageId)
          .where('package_groups.type', '=', type)
          .where('package_groups.company_id', '=', this.ctx.companyId),
      )
      .orderBy('id')
      .execute();
    return presentPackages(this.ctx.db, this.ctx.companyId, rows);
  }
}
