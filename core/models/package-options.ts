import { readsOwnCompany } from '../identity/tenancy';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { int as count, nothing, orFalse } from '../kernel/shape';
import { PACKAGE_OPTION, PACKAGE_OPTION_ADD, PACKAGE_OPTION_EDIT, PACKAGE_OPTIONS, VALUE_PRICE } from './package-options.fields';
import { model } from '../kernel/model';
import { bool, int, object, string } from '../kernel/parameter';
import { stored, toStored } from '../kernel/money';
import { TallyError } from '../kernel/tally-error';
import { pageOffset } from '../billing/values';
import { ordered, readOrder } from '../billing/ordering';
import { PAGE_SIZE } from '../kernel/paging';
import { optionQuery, optionsOfPackage, presentOptions, pricingFor } from '../billing/option-catalogue';
import { readOptionVars } from './package-options/option-vars';
import { writeGroups, writeValues } from './package-options/option-store';

const ORDER: Record<string, string> = { label: 'label', name: 'name', type: 'type', id: 'id' };
const invalidOption = () => TallyError.invalid({ option_id: { exists: 'Invalid package option ID.' } });

/**
 * The reference's PackageOptions: configurable options sold with a package (memory, disk,
 * addresses). An option has a type (select, radio, checkbox, quantity, text, textarea, password),
 * values each priced per term, period and currency, and the option groups it is in; a package
 * offers the options of its option groups (packages vars[option_groups][]) and services take them
 * with configoptions[<option_id>]=<value>. The reference documents no public signatures for this
 * model: these are the ones its consumers need (docs/compatibility.md).
 */
@model('package_options')
export class PackageOptions {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    returns: count({ description: 'The new option id.' }),
    vars: PACKAGE_OPTION_ADD,
    verb: 'POST',
    params: [object('vars', { default: {} })],
    description:
      'Add an option: vars[label], vars[name], vars[type], vars[values][i][name|value|default|status|min|max|step], vars[values][i][pricing][j][term|period|price|price_renews|setup_fee|cancel_fee|currency], optional vars[groups][] (option groups), vars[addable], vars[editable], vars[hidden], vars[description]. Returns its id.',
  })
  async add(vars: Record<string, unknown>) {
    const read = await readOptionVars(this.ctx.db, this.ctx.companyId, vars, false);
    if (Object.keys(read.errors).length) throw TallyError.invalid(read.errors);
    const row = await this.ctx.db
      .insertInto('package_options')
      .values({
        company_id: this.ctx.companyId,
        label: read.changes.label!,
        name: read.changes.name!,
        type: read.changes.type!,
        addable: 1,
        editable: 1,
        hidden: 0,
        description: null,
        ...read.changes,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await writeValues(this.ctx.db, row.id, read.values ?? []);
    if (read.groups) await writeGroups(this.ctx.db, row.id, read.groups);
    return row.id;
  }

  @callable({
    returns: PACKAGE_OPTION,
    vars: PACKAGE_OPTION_EDIT,
    verb: 'PUT',
    params: [int('option_id'), object('vars')],
    description:
      'Change an option: any field of add; vars[values] replaces its values (vars[values][i][id] keeps and changes one, with its pricing replaced; a value a service uses cannot be left out), vars[groups] its groups. A type is changed only with new values, and not while services use the option. Returns it.',
  })
  async edit(optionId: number, vars: Record<string, unknown>) {
    const option = await this.get(optionId);
    if (!option) throw invalidOption();
    const read = await readOptionVars(
      this.ctx.db,
      this.ctx.companyId,
      vars,
      true,
      option.type,
      option.values.map((v) => v.id),
    );
    const used = await this.valuesInUse(optionId);
    if (read.changes.type !== undefined && read.changes.type !== option.type && used.length) read.errors.type = { in_use: 'Services use this option: its type cannot change.' };
    if (read.values && used.some((id) => !read.values!.some((v) => v.id === id))) read.errors.values = { in_use: 'A value services use cannot be removed; set its status to inactive instead.' };
    if (Object.keys(read.errors).length) throw TallyError.invalid(read.errors);
    if (Object.keys(read.changes).length) await this.ctx.db.updateTable('package_options').set(read.changes).where('id', '=', optionId).execute();
    if (read.values) await writeValues(this.ctx.db, optionId, read.values);
    if (read.groups) await writeGroups(this.ctx.db, optionId, read.groups);
    return this.get(optionId);
  }

  @callable({ returns: nothing(), verb: 'DELETE', params: [int('option_id')], description: 'Delete an option no service uses, with its values and pricing.' })
  async delete(optionId: number) {
    const option = await this.get(optionId);
    if (!option) throw invalidOption();
    if ((await this.valuesInUse(optionId)).length) throw TallyError.invalid({ option_id: { in_use: 'Services use this option; change their options first.' } });
    await writeValues(this.ctx.db, optionId, []);
    await writeGroups(this.ctx.db, optionId, []);
    await this.ctx.db.deleteFrom('package_options').where('id', '=', optionId).execute();
    return null;
  }

  @callable({ returns: orFalse(PACKAGE_OPTION), verb: 'GET', params: [int('option_id')], description: 'An option with its values, their pricing and its groups, or false.' })
  async get(optionId: number) {
    const rows = await optionQuery(this.ctx.db, this.ctx.companyId).where('id', '=', optionId).execute();
    return (await presentOptions(this.ctx.db, rows))[0] ?? false;
  }

  @callable({
    returns: PACKAGE_OPTIONS,
    verb: 'GET',
    params: [int('company_id', { default: null })],
    description: "Every option of the company (another company's id answers none).",
  })
  async getAll(companyId: number | null) {
    if (!readsOwnCompany(this.ctx, companyId)) return [];
    return presentOptions(this.ctx.db, await optionQuery(this.ctx.db, this.ctx.companyId).orderBy('label').orderBy('id').execute());
  }

  @callable({
    returns: PACKAGE_OPTIONS,
    verb: 'GET',
    params: [int('page', { default: 1 }), object('order_by', { default: { label: 'ASC' } })],
    description: `One page (25) of the company's options; order_by[field]=ASC|DESC over ${Object.keys(ORDER).join(', ')}.`,
  })
  async getList(page: number, orderBy: unknown) {
    const query = ordered(optionQuery(this.ctx.db, this.ctx.companyId), readOrder(orderBy, ORDER), 'id');
    return presentOptions(this.ctx.db, await query.limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute());
  }

  @callable({ returns: count(), verb: 'GET', description: 'How many options the company has.' })
  async getListCount() {
    const row = await this.ctx.db
      .selectFrom('package_options')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('company_id', '=', this.ctx.companyId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  @callable({ returns: PACKAGE_OPTIONS, verb: 'GET', params: [int('package_id')], description: "The options a package offers: those of its option groups, in each group's order." })
  getByPackageId(packageId: number) {
    return optionsOfPackage(this.ctx.db, this.ctx.companyId, packageId);
  }

  @callable({ returns: PACKAGE_OPTIONS, verb: 'GET', params: [int('option_group_id')], description: 'The options of an option group, in its order.' })
  async getAllByGroupId(groupId: number) {
    const rows = await optionQuery(this.ctx.db, this.ctx.companyId)
      .innerJoin('package_option_group_options', 'package_option_group_options.option_id', 'package_options.id')
      .where('package_option_group_options.option_group_id', '=', groupId)
      .orderBy('package_option_group_options.sort_order')
      .orderBy('package_options.id')
      .execute();
    return presentOptions(this.ctx.db, rows);
  }

  @callable({
    returns: orFalse(VALUE_PRICE),
    verb: 'GET',
    params: [int('value_id'), int('term'), string('period'), string('currency'), int('qty', { default: 1 }), bool('renew', { default: false })],
    description:
      "What qty of an option value costs for one term (its renewal price with renew=true) in a currency, with its setup fee; false when the value (of the company's options) has no price for it.",
  })
  async getValuePrice(valueId: number, term: number, period: string, currency: string, qty: number, renew: boolean) {
    const value = await this.ctx.db
      .selectFrom('package_option_values')
      .innerJoin('package_options', 'package_options.id', 'package_option_values.option_id')
      .select('package_option_values.option_id')
      .where('package_options.company_id', '=', this.ctx.companyId)
      .where('package_option_values.id', '=', valueId)
      .executeTakeFirst();
    if (!value) return false;
    const option = (await this.get(value.option_id)) as Exclude<Awaited<ReturnType<PackageOptions['get']>>, false>;
    const price = pricingFor(
      option.values.find((v) => v.id === valueId)!,
      term,
      period,
      currency.toUpperCase(),
    );
    if (!price) return false;
    return { price: toStored(stored(renew ? price.price_renews : price.price).times(qty)), setup_fee: price.setup_fee, currency: price.currency };
  }

  /** The option's value ids services have taken. */
  private async valuesInUse(optionId: number): Promise<number[]> {
    const rows = await this.ctx.db.selectFrom('service_options').select('value_id').distinct().where('option_id', '=', optionId).execute();
    return rows.map((r) => r.value_id);
  }
}
