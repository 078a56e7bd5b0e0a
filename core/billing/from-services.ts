import { sql } from 'kysely';
import { arrayLiteral } from '../db/array-literal';
import { isUniqueViolation } from '../db/errors';
import { runPrepared } from '../db/prepared-statements';
import { insertRows } from '../db/bulk-insert';
import { Tx } from '../db/schema';
import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { Amount, stored, toStored } from '../kernel/money';
import { TallyError } from '../kernel/tally-error';
import { isPostgres } from '../db/is-postgres';
import { CouponBook } from './coupon-discount';
import { firstPeriodPrice } from './proration';
import { localDate, nextRenewDate } from './renew-dates';
import { periodOf, serviceCurrency, ServiceRow } from './service-store';
import { emitServiceInvoices, madeFrom } from './service-invoice-events';
import { optionCharges, PricedOption } from './option-charges';
import { pricedOptions } from './service-options';
import type { Period } from './service-period';

export interface FromServicesOptions {
  readonly currency: string;
  /** UTC `YYYY-MM-DD hh:mm:ss`. */
  readonly dueDate: string;
  readonly allowProRata: boolean;
  /** True: bill the next period of each service (a renewal) and move its renew date on. */
  readonly renew: boolean;
  readonly termCycles: number;
  /** The clock of the caller (the billing run's `now`). */
  readonly now: string;
}

/** Rows per multi-row statement: well under SQLite's and PostgreSQL's limits on parameters. */
export const ROWS_PER_INSERT = 500;

export interface Line {
  description: string;
  amount: string;
  qty: number;
  tax: boolean;
  /** The service the line bills (its price, setup fee or coupon), as the reference's lines name it. */
  service_id: number;
}

export type { Period } from './service-period';

/** An invoice's lines (as invoices/add takes them) and the service periods it bills. */
export interface ServiceInvoiceDraft {
  readonly lines: Line[];
  readonly periods: Period[];
}

/**
 * One invoice for services of one client in one currency, and one `service_invoices` row per
 * service period it bills. That row's key (service_id, period_start) is what keeps a second or a
 * concurrent billing run from invoicing the same period again: the loser's insert fails, its
 * transaction (invoice included) is rolled back, and it answers `invoiced`.
 */
export async function invoiceServices(ctx: CallContext, calls: ModelCalls, clientId: number, services: readonly ServiceRow[], options: FromServicesOptions): Promise<number> {
  const draft = draftServiceInvoice(ctx.timezone, clientId, services, options, await loadBooks(ctx.db, services));
  const invoiceId = (await calls.call(ctx, 'invoices', 'add', {
    vars: { client_id: clientId, date_billed: `${options.now} UTC`, date_due: `${dueDateOf(options)} UTC`, currency: options.currency, lines: draft.lines },
  })) as number;
  await recordPeriods(ctx.db, [{ invoiceId, periods: draft.periods }]);
  if (options.renew) await moveRenewDates(ctx.db, draft.periods);
  await emitServiceInvoices(ctx.db, ctx.companyId, [await madeFrom(ctx, invoiceId, draft.periods)]);
  return invoiceId;
}

/** What billing services reads beforehand: their coupons, and their package options priced for each. */
export interface ServiceBooks {
  readonly coupons: CouponBook;
  readonly options: ReadonlyMap<number, readonly PricedOption[]>;
}

export async function loadBooks(db: Tx, services: readonly ServiceRow[]): Promise<ServiceBooks> {
  return {
    coupons: await CouponBook.load(
      db,
      services.map((s) => s.coupon_id),
    ),
    options: await pricedOptions(
      db,
      services.map((s) => ({ id: s.id, term: s.term, period: s.period, currency: serviceCurrency(s) })),
    ),
  };
}

/**
 * What invoiceServices bills, worked out without the database (coupons and options read
 * beforehand). A new service is billed from its start to its first renew date (prorated to the
 * package's pro rata day when `allowProRata`), with its setup fee; a renewal from its renew date
 * for `termCycles` terms at the renewal price, and the renew date moves to the end of that. Each
 * package option the service took is a line of its own priced the same way (option-charges.ts),
 * with its setup fee on the first invoice. Coupons take their discount (of the package's price) as
 * a line of their own; the package's taxable flag taxes the lines.
 */
export function draftServiceInvoice(timezone: string, clientId: number, services: readonly ServiceRow[], options: FromServicesOptions, books: ServiceBooks): ServiceInvoiceDraft {
  const { coupons } = books;
  const lines: Line[] = [];
  const periods: Period[] = [];
  for (const service of services) {
    if (service.client_id !== clientId) throw TallyError.invalid({ service_ids: { client: `Service ${service.id} is not the client's.` } });
    if (serviceCurrency(service) !== options.currency) throw TallyError.invalid({ currency: { services: `Service ${service.id} is billed in ${serviceCurrency(service)}.` } });
    const period = options.renew ? renewalPeriod(timezone, service, options.termCycles) : newPeriod(service);
    const taxable = Number(service.taxable) === 1;
    const unit = stored(service.override_price ?? (options.renew ? (service.price_renews ?? service.price) : service.price)).times(options.renew ? options.termCycles : 1);
    const prorated = !options.renew && options.allowProRata && service.prorata_day && period.end && ['month', 'year'].includes(service.period);
    const share = prorated ? (price: Amount) => firstPeriodPrice(price, period.start, period.end!, service.prorata_day!, service.term, periodOf(service), timezone) : undefined;
    const amount = share ? share(unit) : unit;
    const dates = period.end ? ` (${localDate(period.start, timezone)} - ${localDate(period.end, timezone)})` : '';
    lines.push({ description: `${service.package_name}${dates}`, amount: toStored(amount), qty: Number(service.qty), tax: taxable, service_id: service.id });
    if (!options.renew && stored(service.setup_fee).gt(0)) lines.push({ description: `${service.package_name} setup fee`, amount: service.setup_fee, qty: 1, tax: taxable, service_id: service.id });
    for (const charge of optionCharges(books.options.get(service.id) ?? [], { serviceQty: Number(service.qty), renew: options.renew, cycles: options.renew ? options.termCycles : 1, share })) {
      const name = `${service.package_name} - ${charge.option.label}: ${charge.option.valueName}`;
      lines.push({ description: `${name}${dates}`, amount: toStored(charge.unit), qty: charge.qty, tax: taxable, service_id: service.id });
      if (charge.setup.gt(0)) lines.push({ description: `${name} setup fee`, amount: toStored(charge.setup), qty: 1, tax: taxable, service_id: service.id });
    }
    if (service.coupon_id) {
      const off = coupons.discount(service.coupon_id, service.package_id, options.currency, amount.times(service.qty), options.now, options.renew);
      if (off) lines.push({ description: `Coupon ${off.code}: ${service.package_name}`, amount: toStored(off.amount.negated()), qty: 1, tax: taxable, service_id: service.id });
    }
    periods.push(period);
  }
  return { lines, periods };
}

/** The invoice's due date: the one asked for, or the billing date when that is later. */
export function dueDateOf(options: FromServicesOptions): string {
  return options.dueDate < options.now ? options.now : options.dueDate;
}

/** The `service_invoices` rows of invoices: a period already invoiced is refused (`service_ids.invoiced`). */
export async function recordPeriods(db: Tx, invoices: ReadonlyArray<{ invoiceId: number; periods: readonly Period[] }>): Promise<void> {
  const rows = invoices.flatMap(({ invoiceId, periods }) =>
    periods.map((p) => ({ service_id: p.serviceId, period_start: p.start, period_end: p.end, invoice_id: invoiceId, kind: p.kind, date_processed: null })),
  );
  try {
    await insertRows(db, 'service_invoices', PERIOD_COLUMNS, rows);
  } catch (error) {
    if (isUniqueViolation(error)) throw TallyError.invalid({ service_ids: { invoiced: 'A service period is already invoiced.' } });
    throw error;
  }
}

const PERIOD_COLUMNS = { service_id: 'integer', period_start: 'text', period_end: 'text', invoice_id: 'integer', kind: 'text', date_processed: 'text' };

/**
 * Renewed services move on to the end of the period billed. PostgreSQL: one statement for them
 * all, each service's dates in arrays (its text never varies: kept prepared), where an update per
 * distinct period with its ids as a list of placeholders was parsed and planned anew for every
 * batch. SQLite (no arrays, no round trips): one update per distinct period, services mostly
 * renewing together.
 */
export async function moveRenewDates(db: Tx, periods: readonly Period[]): Promise<void> {
  if (!periods.length) return;
  if (isPostgres(db)) {
    await runPrepared(
      db,
      sql`update services set date_last_renewed = moved.start, date_renews = moved.until
      from unnest(cast(${arrayLiteral(periods.map((p) => p.serviceId))} as integer[]), cast(${arrayLiteral(periods.map((p) => p.start))} as text[]), cast(${arrayLiteral(periods.map((p) => p.end))} as text[])) as moved(id, start, until)
      where services.id = moved.id`,
    );
    return;
  }
  const byPeriod = new Map<string, Period[]>();
  for (const p of periods) {
    const key = `${p.start}|${p.end}`;
    if (!byPeriod.has(key)) byPeriod.set(key, []);
    byPeriod.get(key)!.push(p);
  }
  for (const same of byPeriod.values()) {
    for (let at = 0; at < same.length; at += ROWS_PER_INSERT) {
      const ids = same.slice(at, at + ROWS_PER_INSERT).map((p) => p.serviceId);
      await db.updateTable('services').set({ date_last_renewed: same[0].start, date_renews: same[0].end }).where('id', 'in', ids).execute();
    }
  }
}

function newPeriod(service: ServiceRow): Period {
  return { serviceId: service.id, start: service.date_added, end: service.date_renews, kind: 'new' };
}

function renewalPeriod(timezone: string, service: ServiceRow, cycles: number): Period {
  if (!service.date_renews || service.period === 'onetime') throw TallyError.invalid({ service_ids: { renews: `Service ${service.id} does not renew.` } });
  return { serviceId: service.id, start: service.date_renews, end: nextRenewDate(service.date_renews, service.term * cycles, periodOf(service), timezone), kind: 'renew' };
}
