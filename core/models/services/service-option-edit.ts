import { Tx } from '../../db/schema';
import { Amount, stored, sum } from '../../kernel/money';
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

/** The term, period and currency a pricing row bills options in. */
function billedAtPricing(pricing: Pricing): BilledAs {
  return { packageId: pricing.package_id, term: pricing.term, period: pricing.period, currency: pricing.currency };
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
  const billed = moving ? billedAtPricing(pricing) : billedAs(service);
  return { ...(await readConfigOptions(db, companyId, billed, raw)), billed };
}

/**
 * What the service's options cost a term now and at another pricing (kept as they are), for
 * services/getChangeQuote: the quote prorates them as services/edit would.
 */
export async function optionPricesAt(db: Tx, companyId: number, service: ServiceRow, pricingId: number): Promise<{ before: Amount; after: Amount }> {
  const next = await findPackagePricing(db, companyId, pricingId);
  const before = await termPrice(db, service, billedAs(service));
  return { before, after: next ? await termPrice(db, service, billedAtPricing(next)) : before };
}

/**
 * Stores the service's new options and answers one term of them before and after (for the
 * service's quantity), which the change prorates.
 */
export async function replaceOptions(db: Tx, service: ServiceRow, choices: readonly OptionChoice[], billed: BilledAs): Promise<{ before: Amount; after: Amount }> {
  const before = await termPrice(db, service, billedAs(service));
  await writeServiceOptions(db, service.id, choices);
  return { before, after: await termPrice(db, service, billed) };
}

/** One term of the service's stored options for its quantity, priced as `as`. */
async function termPrice(db: Tx, service: ServiceRow, as: BilledAs): Promise<Amount> {
  return optionsTermPrice((await pricedOptions(db, [{ id: service.id, ...as }])).get(service.id) ?? [], Number(service.qty));
}

/**
 * One term of the service's options now and of `choices` at `billed`, without storing them: a
 * queued change is quoted and invoiced while the service keeps its options until it is paid. A
 * value without a price there costs nothing, as pricedOptions has it.
 */
export async function optionPricesFor(db: Tx, service: ServiceRow, choices: readonly OptionChoice[], billed: BilledAs): Promise<{ before: Amount; after: Amount }> {
  const before = await termPrice(db, service, billedAs(service));
  const valueIds = [...new Set(choices.map((c) => c.value_id))];
  const rows = valueIds.length
    ? await db
        .selectFrom('package_option_pricing')
        .select(['value_id', 'price'])
        .where('value_id', 'in', valueIds)
        .where('term', '=', billed.term)
        .where('period', '=', billed.period)
        .where('currency', '=', billed.currency)
        .orderBy('id')
        .execute()
    : [];
  const prices = new Map(rows.map((r) => [r.value_id, r.price]));
  const after = sum(choices.filter((c) => prices.has(c.value_id)).map((c) => stored(prices.get(c.value_id)!).times(c.qty * Number(service.qty))));
  return { before, after };
}
