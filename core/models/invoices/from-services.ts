import { isUniqueViolation } from '../../db/errors';
import { CallContext } from '../../kernel/call-context';
import { ModelCalls } from '../../kernel/model-calls';
import { stored, toStored } from '../../kernel/money';
import { TallyError } from '../../kernel/tally-error';
import { couponDiscount } from '../coupons/coupon-discount';
import { proratedAmount } from '../services/proration';
import { localDate, nextRenewDate } from '../services/renew-dates';
import { periodOf, serviceCurrency, ServiceRow } from '../services/service-store';

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

export interface Line {
  description: string;
  amount: string;
  qty: number;
  tax: boolean;
}

export interface Period {
  readonly serviceId: number;
  readonly start: string;
  readonly end: string | null;
  readonly kind: 'new' | 'renew';
}

/**
 * One invoice for services of one client in one currency, and one `service_invoices` row per
 * service period it bills. That row's key (service_id, period_start) is what keeps a second or a
 * concurrent billing run from invoicing the same period again: the loser's insert fails, its
 * transaction (invoice included) is rolled back, and it answers `invoiced`.
 *
 * A new service is billed from its start to its first renew date (prorated to the package's pro
 * rata day when `allowProRata`), with its setup fee; a renewal from its renew date for
 * `termCycles` terms at the renewal price, and the renew date moves to the end of that. Coupons
 * take their discount as a line of their own; the package's taxable flag taxes the lines.
 */
export async function invoiceServices(ctx: CallContext, calls: ModelCalls, clientId: number, services: readonly ServiceRow[], options: FromServicesOptions): Promise<number> {
  const { lines, periods } = await serviceLines(ctx, clientId, services, options);
  const invoiceId = (await calls.call(ctx, 'invoices', 'add', {
    vars: { client_id: clientId, date_billed: `${options.now} UTC`, date_due: `${options.dueDate < options.now ? options.now : options.dueDate} UTC`, currency: options.currency, lines },
  })) as number;
  await recordPeriods(ctx, invoiceId, periods, options.renew);
  return invoiceId;
}

/** The invoice lines that bill these services and the service periods they bill (invoices/appendServices adds them to an invoice). */
export async function serviceLines(ctx: CallContext, clientId: number, services: readonly ServiceRow[], options: FromServicesOptions): Promise<{ lines: Line[]; periods: Period[] }> {
  const lines: Line[] = [];
  const periods: Period[] = [];
  for (const service of services) {
    if (service.client_id !== clientId) throw TallyError.invalid({ service_ids: { client: `Service ${service.id} is not the client's.` } });
    if (serviceCurrency(service) !== options.currency) throw TallyError.invalid({ currency: { services: `Service ${service.id} is billed in ${serviceCurrency(service)}.` } });
    const period = options.renew ? renewalPeriod(ctx, service, options.termCycles) : newPeriod(service);
    const taxable = Number(service.taxable) === 1;
    const unit = stored(service.override_price ?? (options.renew ? service.price_renews ?? service.price : service.price)).times(options.renew ? options.termCycles : 1);
    let amount = unit;
    if (!options.renew && options.allowProRata && service.prorata_day && period.end && ['month', 'year'].includes(service.period)) {
      amount = proratedAmount(unit, period.start, period.end, service.term, periodOf(service), ctx.timezone);
    }
    const dates = period.end ? ` (${localDate(period.start, ctx.timezone)} - ${localDate(period.end, ctx.timezone)})` : '';
    lines.push({ description: `${service.package_name}${dates}`, amount: toStored(amount), qty: Number(service.qty), tax: taxable });
    if (!options.renew && stored(service.setup_fee).gt(0)) lines.push({ description: `${service.package_name} setup fee`, amount: service.setup_fee, qty: 1, tax: taxable });
    if (service.coupon_id) {
      const off = await couponDiscount(ctx.db, service.coupon_id, service.package_id, options.currency, amount.times(service.qty), options.now, options.renew);
      if (off) lines.push({ description: `Coupon ${off.code}: ${service.package_name}`, amount: toStored(off.amount.negated()), qty: 1, tax: taxable });
    }
    periods.push(period);
  }
  return { lines, periods };
}

/** Records which invoice bills each service period (once: the key refuses a second), and moves renewing services on. */
export async function recordPeriods(ctx: CallContext, invoiceId: number, periods: readonly Period[], renew: boolean): Promise<void> {
  try {
    await ctx.db.insertInto('service_invoices').values(periods.map((p) => ({ service_id: p.serviceId, period_start: p.start, period_end: p.end, invoice_id: invoiceId, kind: p.kind, date_processed: null }))).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw TallyError.invalid({ service_ids: { invoiced: 'A service period is already invoiced.' } });
    throw error;
  }
  if (renew) {
    // One update per distinct period (services of a client mostly renew together).
    const byPeriod = new Map<string, Period[]>();
    for (const p of periods) byPeriod.set(`${p.start}|${p.end}`, [...(byPeriod.get(`${p.start}|${p.end}`) ?? []), p]);
    for (const same of byPeriod.values()) {
      await ctx.db.updateTable('services').set({ date_last_renewed: same[0].start, date_renews: same[0].end }).where('id', 'in', same.map((p) => p.serviceId)).execute();
    }
  }
}

function newPeriod(service: ServiceRow): Period {
  return { serviceId: service.id, start: service.date_added, end: service.date_renews, kind: 'new' };
}

function renewalPeriod(ctx: CallContext, service: ServiceRow, cycles: number): Period {
  if (!service.date_renews || service.period === 'onetime') throw TallyError.invalid({ service_ids: { renews: `Service ${service.id} does not renew.` } });
  return { serviceId: service.id, start: service.date_renews, end: nextRenewDate(service.date_renews, service.term * cycles, periodOf(service), ctx.timezone), kind: 'renew' };
}
