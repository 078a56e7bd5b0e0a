import { Tx } from '../db/schema';
import { forUpdate } from './for-update';
import { systemDecrypt } from '../kernel/system-cipher';
import { TallyError } from '../kernel/tally-error';
import { Period } from './renew-dates';

export const SERVICE_STATUSES = ['pending', 'in_review', 'active', 'suspended', 'canceled'] as const;
/** getList filters besides the statuses, as the reference has them. */
export const SERVICE_FILTERS = ['scheduled_cancellation', 'all'] as const;

export const invalidService = () => TallyError.invalid({ service_id: { exists: 'Invalid service ID.' } });

const COLUMNS = [
  'services.id',
  'services.company_id',
  'services.client_id',
  'services.pricing_id',
  'services.parent_service_id',
  'services.package_group_id',
  'services.coupon_id',
  'services.qty',
  'services.override_price',
  'services.override_currency',
  'services.status',
  'services.suspension_reason',
  'services.auto_suspended',
  'services.date_added',
  'services.date_renews',
  'services.date_last_renewed',
  'services.date_suspended',
  'services.date_canceled',
  'services.module_row_id',
] as const;

/** Services of a company with what billing them needs: the package and its pricing row. */
export function serviceQuery(db: Tx, companyId: number) {
  return db
    .selectFrom('services')
    .innerJoin('pricings', 'pricings.id', 'services.pricing_id')
    .innerJoin('packages', 'packages.id', 'pricings.package_id')
    .select(COLUMNS)
    .select([
      'packages.id as package_id',
      'packages.name as package_name',
      'packages.module',
      'packages.module_settings',
      'packages.taxable',
      'packages.prorata_day',
      'pricings.term',
      'pricings.period',
      'pricings.price',
      'pricings.price_renews',
      'pricings.setup_fee',
      'pricings.cancel_fee',
      'pricings.currency',
    ])
    .where('services.company_id', '=', companyId);
}

export type ServiceRow = Awaited<ReturnType<ReturnType<typeof serviceQuery>['executeTakeFirstOrThrow']>>;

export function findService(db: Tx, companyId: number, serviceId: number) {
  return serviceQuery(db, companyId).where('services.id', '=', serviceId).executeTakeFirst();
}

export async function requireService(db: Tx, companyId: number, serviceId: number): Promise<ServiceRow> {
  const row = await findService(db, companyId, serviceId);
  if (!row) throw invalidService();
  return row;
}

/**
 * requireService, holding the service's row until the call ends (PostgreSQL; SQLite's writers take
 * turns anyway). A change reads the service and then writes money from what it read: two
 * concurrent downgrades each credited the unused time of the old price, so eight at once credited
 * it eight times. Held, the second reads what the first wrote and has nothing left to change.
 */
export async function lockService(db: Tx, companyId: number, serviceId: number): Promise<ServiceRow> {
  await forUpdate(db, db.selectFrom('services').select('id').where('id', '=', serviceId).where('company_id', '=', companyId)).execute();
  return requireService(db, companyId, serviceId);
}

/** The currency a service is billed in: its override, else its pricing's. */
export function serviceCurrency(row: Pick<ServiceRow, 'override_currency' | 'currency'>): string {
  return row.override_currency ?? row.currency;
}

export function periodOf(row: ServiceRow): Period {
  return row.period as Period;
}

/** A service's fields, secret ones decrypted (an API credential is full access to its company). */
export async function readFields(db: Tx, serviceIds: readonly number[], systemKey: string) {
  if (!serviceIds.length) return new Map<number, Array<{ key: string; value: string; encrypted: number }>>();
  const rows = await db.selectFrom('service_fields').selectAll().where('service_id', 'in', serviceIds).orderBy('key').execute();
  const byService = new Map<number, Array<{ key: string; value: string; encrypted: number }>>();
  for (const r of rows) {
    const value = r.encrypted ? systemDecrypt(r.value, systemKey) : r.value;
    byService.set(r.service_id, [...(byService.get(r.service_id) ?? []), { key: r.key, value, encrypted: Number(r.encrypted) }]);
  }
  return byService;
}

/** Services as the API shows them: the record, its package and pricing, and its fields. */
export async function presentServices(db: Tx, rows: readonly ServiceRow[], systemKey: string) {
  const fields = await readFields(
    db,
    rows.map((r) => r.id),
    systemKey,
  );
  return rows.map((r) => ({
    id: r.id,
    parent_service_id: r.parent_service_id,
    package_group_id: r.package_group_id,
    pricing_id: r.pricing_id,
    client_id: r.client_id,
    module_row_id: r.module_row_id,
    coupon_id: r.coupon_id,
    qty: Number(r.qty),
    override_price: r.override_price,
    override_currency: r.override_currency,
    status: r.status,
    suspension_reason: r.suspension_reason,
    date_added: r.date_added,
    date_renews: r.date_renews,
    date_last_renewed: r.date_last_renewed,
    date_suspended: r.date_suspended,
    date_canceled: r.date_canceled,
    name: r.package_name,
    package: { id: r.package_id, name: r.package_name, module: r.module, taxable: Number(r.taxable), prorata_day: r.prorata_day },
    package_pricing: {
      id: r.pricing_id,
      term: r.term,
      period: r.period,
      price: r.price,
      price_renews: r.price_renews ?? r.price,
      setup_fee: r.setup_fee,
      cancel_fee: r.cancel_fee,
      currency: r.currency,
    },
    fields: fields.get(r.id) ?? [],
  }));
}
