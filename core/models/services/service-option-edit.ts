import { Tx } from '../../db/schema';
import { Amount } from '../../kernel/money';
import { BilledAs, OptionChoice, readConfigOptions, writeServiceOptions } from '../../billing/config-options';
import { optionsTermPrice } from '../../billing/option-charges';
import { configOptionsOf, pricedOptions } from '../../billing/service-options';
import { serviceCurrency, ServiceRow } from '../../billing/service-store';
import { findPackagePricing } from './service-vars';

type Pricing = NonNullable<Awaited<ReturnType<typeof findPackagePricing>>>;

/** The term, period and currency a service's options are priced in: its pricing's (its override currency). */
export function billedAs(service: ServiceRow): BilledAs {
  return { packageId: service.package_id, term: service.term, period: service.period, currency: serviceCurrency(service) };
}

/**
 * What services/edit does to a service's options: `configoptions` given replaces them all (as the
 * reference's edit); a move to another pricing without it keeps the options the service has, each
 * checked against the new package and priced in the new term and currency (an option the new
 * pricing does not offer is a 400 naming it: send configoptions for the new pricing). Null: the
 * options stay as they are.
 */
export async function readOptionEdit(db: Tx, companyId: number, service: ServiceRow, pricing: Pricing | undefined, configoptions: unknown) {
  const moving = pricing !== undefined && pricing.id !== service.pricing_id;
  const raw = configoptions !== undefined ? configoptions : moving ? await configOptionsOf(db, service.id) : undefined;
  if (raw === undefined) return { errors: {}, choices: null };
  const billed = moving ? { packageId: pricing.package_id, term: pricing.term, period: pricing.period, currency: pricing.currency } : billedAs(service);
  return { ...(await readConfigOptions(db, companyId, billed, raw)), billed };
}

/**
 * Stores the service's new options and answers one term of them before and after (for the
 * service's quantity), which the change prorates.
 */
export async function replaceOptions(db: Tx, service: ServiceRow, choices: readonly OptionChoice[], billed: BilledAs): Promise<{ before: Amount; after: Amount }> {
  const price = async (as: BilledAs) => optionsTermPrice((await pricedOptions(db, [{ id: service.id, ...as }])).get(service.id) ?? [], Number(service.qty));
  const before = await price(billedAs(service));
  await writeServiceOptions(db, service.id, choices);
  return { before, after: await price(billed) };
}
