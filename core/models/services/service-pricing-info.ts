import { Tx } from '../../db/schema';
import { toStored, stored } from '../../kernel/money';
import { TallyError } from '../../kernel/tally-error';
import { formatTerm } from '../../billing/term-format';
import { serviceCurrency, ServiceRow } from '../../billing/service-store';

/** services/getPricingInfo: what a service costs, in its own currency (Tally converts nothing). */
export function pricingInfo(service: ServiceRow, currency: string | null) {
  const billedIn = serviceCurrency(service);
  if (currency !== null && currency.toUpperCase() !== billedIn) throw TallyError.invalid({ currency_code: { convert: `The service is billed in ${billedIn}.` } });
  return {
    service_id: service.id,
    package_name: service.package_name,
    name: `${service.package_name} (${formatTerm(Number(service.term), service.period)})`,
    qty: Number(service.qty),
    term: Number(service.term),
    period: service.period,
    currency: billedIn,
    price: toStored(stored(service.override_price ?? service.price)),
    price_renews: toStored(stored(service.override_price ?? service.price_renews ?? service.price)),
    setup_fee: toStored(stored(service.setup_fee)),
    cancel_fee: toStored(stored(service.cancel_fee)),
  };
}

/** services/getPackagePricing: a pricing row of the company with its package's id and name; false when none. */
export async function packagePricing(db: Tx, companyId: number, pricingId: number) {
  const row = await db
    .selectFrom('pricings')
    .innerJoin('packages', 'packages.id', 'pricings.package_id')
    .select([
      'pricings.id',
      'pricings.term',
      'pricings.period',
      'pricings.price',
      'pricings.price_renews',
      'pricings.setup_fee',
      'pricings.cancel_fee',
      'pricings.currency',
      'packages.id as package_id',
      'packages.name as package_name',
    ])
    .where('pricings.company_id', '=', companyId)
    .where('pricings.id', '=', pricingId)
    .executeTakeFirst();
  if (!row) return false;
  return {
    ...row,
    term: Number(row.term),
    price: toStored(stored(row.price)),
    price_renews: toStored(stored(row.price_renews ?? row.price)),
    setup_fee: toStored(stored(row.setup_fee)),
    cancel_fee: toStored(stored(row.cancel_fee)),
  };
}

/** The lifecycle actions of services/... and what each does (services/getActions). */
export const SERVICE_ACTIONS: Record<string, string> = {
  suspend: 'Suspend',
  unsuspend: 'Unsuspend',
  cancel: 'Cancel',
  schedule_cancel: 'Schedule Cancellation',
  uncancel: 'Remove Scheduled Cancellation',
  renew: 'Renew',
  change_package: 'Change Package or Term',
  move: 'Move to Another Client',
};
