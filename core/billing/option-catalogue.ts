import { Tx } from '../db/schema';
import { presentPricing } from './pricing-rows';

export const OPTION_TYPES = ['select', 'radio', 'checkbox', 'quantity', 'text', 'textarea', 'password'] as const;
export type OptionType = (typeof OPTION_TYPES)[number];

/** Types whose value is the customer's own text, priced by the option's one value row. */
export const TEXT_TYPES: readonly string[] = ['text', 'textarea', 'password'];

const OPTION_COLUMNS = ['id', 'company_id', 'label', 'name', 'type', 'addable', 'editable', 'hidden', 'description'] as const;

/** The company's options, optionally only some ids. */
export function optionQuery(db: Tx, companyId: number) {
  return db.selectFrom('package_options').select(OPTION_COLUMNS).where('company_id', '=', companyId);
}

type OptionRow = Awaited<ReturnType<ReturnType<typeof optionQuery>['executeTakeFirstOrThrow']>>;

/**
 * Options as the reference's PackageOptions answers them: the option, its values (in their order,
 * each with `default`, `status`, quantity limits and its pricing rows per term, period and currency)
 * and the option groups it is in.
 */
export async function presentOptions(db: Tx, rows: readonly OptionRow[]) {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const values = await db.selectFrom('package_option_values').selectAll().where('option_id', 'in', ids).orderBy('sort_order').orderBy('id').execute();
  const pricing = values.length
    ? await db
        .selectFrom('package_option_pricing')
        .selectAll()
        .where(
          'value_id',
          'in',
          values.map((v) => v.id),
        )
        .orderBy('id')
        .execute()
    : [];
  const groups = await db.selectFrom('package_option_group_options').select(['option_id', 'option_group_id']).where('option_id', 'in', ids).orderBy('option_group_id').execute();
  return rows.map((row) => ({
    ...row,
    addable: Number(row.addable),
    editable: Number(row.editable),
    hidden: Number(row.hidden),
    values: values
      .filter((v) => v.option_id === row.id)
      .map((v) => ({
        id: v.id,
        option_id: v.option_id,
        name: v.name,
        value: v.value,
        order: Number(v.sort_order),
        default: Number(v.is_default),
        status: v.status,
        min: v.min,
        max: v.max,
        step: v.step,
        pricing: pricing.filter((p) => p.value_id === v.id).map(({ value_id: _unused, ...p }) => presentPricing(p)),
      })),
    groups: groups.filter((g) => g.option_id === row.id).map((g) => g.option_group_id),
  }));
}

export type PresentedOption = Awaited<ReturnType<typeof presentOptions>>[number];
export type PresentedValue = PresentedOption['values'][number];

/** The options a package offers: those of its option groups, in each group's order. */
export async function optionsOfPackage(db: Tx, companyId: number, packageId: number): Promise<PresentedOption[]> {
  const rows = await optionQuery(db, companyId)
    .innerJoin('package_option_group_options', 'package_option_group_options.option_id', 'package_options.id')
    .innerJoin('package_option_group_packages', 'package_option_group_packages.option_group_id', 'package_option_group_options.option_group_id')
    .where('package_option_group_packages.package_id', '=', packageId)
    .orderBy('package_option_group_options.option_group_id')
    .orderBy('package_option_group_options.sort_order')
    .orderBy('package_options.id')
    .execute();
  const seen = new Set<number>();
  return presentOptions(
    db,
    rows.filter((r) => !seen.has(r.id) && seen.add(r.id)),
  );
}

/** A value's pricing row for a term, period and currency, if it has one. */
export function pricingFor(value: Pick<PresentedValue, 'pricing'>, term: number, period: string, currency: string) {
  return value.pricing.find((p) => p.term === term && p.period === period && p.currency === currency);
}
