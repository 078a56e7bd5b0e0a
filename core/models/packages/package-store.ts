import { Tx } from '../../db/schema';
import { presentPricing, PRICING_COLUMNS } from '../../billing/pricing-rows';

export const PACKAGE_STATUSES = ['active', 'inactive', 'restricted'] as const;

const COLUMNS = ['id', 'company_id', 'name', 'description', 'module', 'module_settings', 'status', 'taxable', 'qty', 'client_qty', 'prorata_day', 'prorata_cutoff', 'date_added'] as const;

export function packageQuery(db: Tx, companyId: number) {
  return db.selectFrom('packages').select(COLUMNS).where('company_id', '=', companyId);
}

type PackageRow = Awaited<ReturnType<ReturnType<typeof packageQuery>['executeTakeFirstOrThrow']>>;

/**
 * A package as the API shows it: names and descriptions in the reference's shape (one language,
 * en_us), its module (the installed module's id and name) with the per-package module settings
 * (`meta`), its pricing rows and the groups it belongs to.
 */
export async function presentPackages(db: Tx, companyId: number, rows: readonly PackageRow[]) {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const pricing = await db.selectFrom('pricings').select(PRICING_COLUMNS).where('company_id', '=', companyId).where('package_id', 'in', ids).orderBy('id').execute();
  const groups = await db.selectFrom('package_group_packages').select(['package_id', 'package_group_id']).where('package_id', 'in', ids).orderBy('package_group_id').execute();
  const optionGroups = await db.selectFrom('package_option_group_packages').select(['package_id', 'option_group_id']).where('package_id', 'in', ids).orderBy('option_group_id').execute();
  const modules = await db.selectFrom('extensions_installed').select(['id', 'name']).where('company_id', '=', companyId).where('type', '=', 'module').execute();
  return rows.map((row) => {
    const { module_settings, ...rest } = row;
    return {
      ...rest,
      taxable: Number(row.taxable),
      module_id: modules.find((m) => m.name === row.module)?.id ?? null,
      names: [{ lang: 'en_us', name: row.name }],
      descriptions: row.description === null ? [] : [{ lang: 'en_us', text: row.description, html: row.description }],
      meta: JSON.parse(module_settings) as Record<string, string>,
      pricing: pricing.filter((p) => p.package_id === row.id).map(({ package_id: _unused, ...p }) => presentPricing(p)),
      groups: groups.filter((g) => g.package_id === row.id).map((g) => g.package_group_id),
      option_groups: optionGroups.filter((g) => g.package_id === row.id).map((g) => g.option_group_id),
    };
  });
}

/** The package option groups a package offers the options of (packages vars[option_groups][]), replaced. */
export async function writeOptionGroups(db: Tx, packageId: number, groupIds: readonly number[]): Promise<void> {
  await db.deleteFrom('package_option_group_packages').where('package_id', '=', packageId).execute();
  if (groupIds.length)
    await db
      .insertInto('package_option_group_packages')
      .values(groupIds.map((id) => ({ package_id: packageId, option_group_id: id })))
      .execute();
}

export async function readPackage(db: Tx, companyId: number, packageId: number) {
  const row = await packageQuery(db, companyId).where('id', '=', packageId).executeTakeFirst();
  return row ? (await presentPackages(db, companyId, [row]))[0] : false;
}

export type PresentedPackage = Awaited<ReturnType<typeof presentPackages>>[number];
