import { Tx } from '../db/schema';
import { idIn } from '../db/id-list';
import { PricedOption } from './option-charges';
import { TEXT_TYPES } from './option-catalogue';

/** What pricing a service's options needs to know of the service. */
export interface OptionBilled {
  readonly id: number;
  readonly term: number;
  readonly period: string;
  /** The currency the service is billed in (serviceCurrency). */
  readonly currency: string;
}

/** The options services took, with their option's and value's names, in option order. */
async function storedOptions(db: Tx, serviceIds: readonly number[]) {
  if (!serviceIds.length) return [];
  return (
    db
      .selectFrom('service_options')
      .innerJoin('package_options', 'package_options.id', 'service_options.option_id')
      .innerJoin('package_option_values', 'package_option_values.id', 'service_options.value_id')
      .select([
        'service_options.id',
        'service_options.service_id',
        'service_options.option_id',
        'service_options.value_id',
        'service_options.value',
        'service_options.qty',
        'package_options.label',
        'package_options.name',
        'package_options.type',
        'package_options.hidden',
        'package_option_values.name as value_name',
        'package_option_values.value as offered_value',
      ])
      // One array parameter on PostgreSQL: the billing run's statement keeps one text whatever the batch.
      .where(idIn(db, 'service_options.service_id', serviceIds))
      .orderBy('service_options.service_id')
      .orderBy('service_options.option_id')
      .execute()
  );
}

async function pricingOf(db: Tx, valueIds: readonly number[]) {
  return valueIds.length ? db.selectFrom('package_option_pricing').selectAll().where('value_id', 'in', valueIds).orderBy('id').execute() : [];
}

/**
 * Each service's options priced for the service's term, period and currency, for its invoices. An
 * option whose value has since lost that price (its pricing edited) is left out: it costs nothing.
 */
export async function pricedOptions(db: Tx, services: readonly OptionBilled[]): Promise<Map<number, PricedOption[]>> {
  const rows = await storedOptions(
    db,
    services.map((s) => s.id),
  );
  // Looked up by key: the billing run prices thousands of services' options at once.
  const key = (valueId: number, as: { term: number; period: string; currency: string }) => `${valueId}|${as.term}|${as.period}|${as.currency}`;
  const prices = new Map((await pricingOf(db, [...new Set(rows.map((r) => r.value_id))])).map((p) => [key(p.value_id, p), p]));
  const byId = new Map(services.map((s) => [s.id, s]));
  const priced = new Map<number, PricedOption[]>();
  for (const row of rows) {
    const price = prices.get(key(row.value_id, byId.get(row.service_id)!));
    if (!price) continue;
    const option = {
      label: row.label,
      valueName: TEXT_TYPES.includes(row.type) ? (row.value ?? '') : row.value_name,
      qty: Number(row.qty),
      price: price.price,
      priceRenews: price.price_renews,
      setupFee: price.setup_fee,
    };
    priced.set(row.service_id, [...(priced.get(row.service_id) ?? []), option]);
  }
  return priced;
}

/**
 * services/getOptions: the options a service took as the reference lists them — the service
 * option's id, quantity and value, the option's id, label, name and type, the value's id, value and
 * name, and the pricing row the service is billed at (null when the value has no price for it).
 */
export async function serviceOptionList(db: Tx, service: OptionBilled) {
  const rows = await storedOptions(db, [service.id]);
  const prices = await pricingOf(
    db,
    rows.map((r) => r.value_id),
  );
  return rows.map((row) => {
    const price = prices.find((p) => p.value_id === row.value_id && p.term === service.term && p.period === service.period && p.currency === service.currency);
    return {
      id: row.id,
      service_id: row.service_id,
      option_pricing_id: price?.id ?? null,
      qty: Number(row.qty),
      value: TEXT_TYPES.includes(row.type) ? row.value : row.offered_value,
      option_id: row.option_id,
      option_label: row.label,
      option_name: row.name,
      option_type: row.type,
      option_hidden: Number(row.hidden),
      option_value_id: row.value_id,
      option_value: row.offered_value,
      option_value_name: row.value_name,
      option_pricing_term: price?.term ?? null,
      option_pricing_period: price?.period ?? null,
      option_pricing_price: price?.price ?? null,
      option_pricing_price_renews: price ? (price.price_renews ?? price.price) : null,
      option_pricing_setup_fee: price?.setup_fee ?? null,
      option_pricing_currency: price?.currency ?? null,
    };
  });
}

/**
 * A service's options as `configoptions` sends them (a quantity, a text, or the value chosen), keyed
 * by option id — what a pricing change checks against the new pricing when the caller sent no
 * configoptions of its own — or by option name, as the package's module is given them.
 */
export async function configOptionsOf(db: Tx, serviceId: number, key: 'option_id' | 'name' = 'option_id'): Promise<Record<string, string>> {
  const rows = await storedOptions(db, [serviceId]);
  return Object.fromEntries(rows.map((r) => [String(r[key]), r.type === 'quantity' ? String(r.qty) : TEXT_TYPES.includes(r.type) ? (r.value ?? '') : (r.offered_value ?? '')]));
}
