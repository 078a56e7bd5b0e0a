import { CallContext } from '../../kernel/call-context';
import { ModelCalls } from '../../kernel/model-calls';
import { Amount, Money, roundTo, stored, toStored, ZERO } from '../../kernel/money';
import { findCurrency } from '../../billing/find-currency';
import { formatUtc } from '../../kernel/timestamps';
import { packageChange } from '../../billing/proration';
import { nextRenewDate, Period } from '../../billing/renew-dates';
import { periodOf, serviceCurrency, ServiceRow } from '../../billing/service-store';
import { ServiceTransitions } from '../../billing/transitions';
import { TallyError } from '../../kernel/tally-error';
import { PricingMove } from '../../billing/queued-changes';

/**
 * One term of the service's package options before and after the change (optionsTermPrice, for
 * the service's quantity): added to the old and the new price, so a change of options alone (the
 * same pricing) is prorated as a change of package is.
 */
export interface OptionPrices {
  readonly before: Amount;
  readonly after: Amount;
}

const NO_OPTIONS: OptionPrices = { before: ZERO, after: ZERO };

/**
 * Moves an active service to another pricing (an upgrade or downgrade, of package or term), or —
 * the same pricing with other options — changes its options. Within the same term and period the
 * renew date stays and the unused time is prorated: the new price for it is invoiced and the old
 * price for it credited, so an upgrade leaves a prorated invoice and a downgrade leaves credit. A
 * new term starts a new period now, with the old unused time credited. The module is told of a new
 * package first; when it refuses, nothing changes.
 */
export async function changePricing(ctx: CallContext, calls: ModelCalls, service: ServiceRow, newPricingId: number, now: string, options: OptionPrices = NO_OPTIONS): Promise<number | null> {
  const quote = await requireQuote(ctx, service, newPricingId, now, options);
  await movePricing(ctx, calls, service, { pricingId: newPricingId, dateRenews: quote.dateRenews, credit: quote.refund.gt(0) ? toStored(quote.refund) : null, creditCurrency: quote.currency }, now);
  if (!quote.net.gt(0)) return null;
  const invoiceId = await invoiceChange(ctx, calls, service, quote, now);
  await recordChangeInvoice(ctx, service.id, invoiceId, quote.dateRenews, now);
  return invoiceId;
}

/** The quote for a pricing of the company, or the 400 services/edit answers for another. */
export async function requireQuote(ctx: CallContext, service: ServiceRow, newPricingId: number, now: string, options: OptionPrices = NO_OPTIONS): Promise<ChangeQuote> {
  const quote = await quoteChange(ctx, service, newPricingId, now, options);
  if (!quote) throw TallyError.invalid({ pricing_id: { exists: 'Invalid pricing ID.' } });
  return quote;
}

/**
 * Moves the service to the pricing (the module told of a new package first: when it refuses,
 * nothing changes) and credits the unused time the quote found.
 */
export async function movePricing(ctx: CallContext, calls: ModelCalls, service: ServiceRow, move: PricingMove, now: string): Promise<void> {
  if (move.pricingId !== service.pricing_id) {
    const next = await ctx.db
      .selectFrom('pricings')
      .innerJoin('packages', 'packages.id', 'pricings.package_id')
      .select(['packages.id as package_id', 'packages.module_settings'])
      .where('pricings.id', '=', move.pricingId)
      .where('pricings.company_id', '=', ctx.companyId)
      .executeTakeFirst();
    if (!next) throw TallyError.invalid({ pricing_id: { exists: 'Invalid pricing ID.' } });
    if (next.package_id !== service.package_id) await new ServiceTransitions(ctx, calls, now).changePackage(service, next.module_settings);
    await ctx.db.updateTable('services').set({ pricing_id: move.pricingId, override_price: null, override_currency: null, date_renews: move.dateRenews }).where('id', '=', service.id).execute();
  }
  if (move.credit !== null) await calls.call(ctx, 'transactions', 'add', { vars: { client_id: service.client_id, amount: move.credit, currency: move.creditCurrency, type: 'other' } });
}

/** The invoice for a change that costs money: the prorated difference, due now. */
export async function invoiceChange(ctx: CallContext, calls: ModelCalls, service: ServiceRow, quote: ChangeQuote, now: string): Promise<number> {
  const keepsPricing = quote.next.pricing_id === service.pricing_id;
  return (await calls.call(ctx, 'invoices', 'add', {
    vars: {
      client_id: service.client_id,
      date_billed: `${now} UTC`,
      date_due: `${now} UTC`,
      currency: quote.invoiceCurrency,
      lines: [
        {
          description: `${keepsPricing ? `${service.package_name}: options changed` : `${service.package_name} → ${quote.next.name}`}: prorated change until ${quote.dateRenews ?? 'the end of the term'}`,
          amount: toStored(quote.net),
          qty: 1,
          tax: Number(quote.next.taxable) === 1,
        },
      ],
    },
  })) as number;
}

/** Keeps a change's invoice as the service's period from `start` to its renew date. */
export async function recordChangeInvoice(ctx: CallContext, serviceId: number, invoiceId: number, dateRenews: string | null, start: string): Promise<void> {
  const periodStart = await freeChangeStart(ctx, serviceId, start);
  await ctx.db
    .insertInto('service_invoices')
    .values({ service_id: serviceId, period_start: periodStart, period_end: dateRenews, invoice_id: invoiceId, kind: 'change', date_processed: formatUtc(new Date()) })
    .execute();
}

export type ChangeQuote = NonNullable<Awaited<ReturnType<typeof quoteChange>>>;

/**
 * What moving the service to the pricing would invoice and credit now, without changing anything:
 * services/getChangeQuote shows it to staff before they confirm, and changePricing does exactly
 * what it says. Null when the company has no such pricing.
 */
export async function quoteChange(ctx: CallContext, service: ServiceRow, newPricingId: number, now: string, options: OptionPrices = NO_OPTIONS) {
  const next = await ctx.db
    .selectFrom('pricings')
    .innerJoin('packages', 'packages.id', 'pricings.package_id')
    .select([
      'pricings.id as pricing_id',
      'pricings.term',
      'pricings.period',
      'pricings.price',
      'pricings.currency',
      'packages.id as package_id',
      'packages.name',
      'packages.module_settings',
      'packages.taxable',
    ])
    .where('pricings.id', '=', newPricingId)
    .where('pricings.company_id', '=', ctx.companyId)
    .executeTakeFirst();
  if (!next) return null;

  const samePeriod = next.term === service.term && next.period === service.period;
  const renews = service.date_renews;
  // The same pricing keeps its override price: only the options change.
  const base = stored(service.override_price ?? service.price).times(service.qty);
  const oldPrice = base.plus(options.before);
  const newPrice = (newPricingId === service.pricing_id ? base : stored(next.price).times(service.qty)).plus(options.after);
  let credit = new Money(0);
  let charge = new Money(0);
  let dateRenews = renews;
  if (renews && renews > now && service.period !== 'onetime') {
    // The period began at the last renewal (or the start, before any): a renew date clamped to a
    // short month (31 January + 1 month = 28 February) is 28 days from it, not 31 from 28 January.
    const began = service.date_last_renewed ?? service.date_added;
    const share = packageChange(oldPrice, samePeriod ? newPrice : new Money(0), now, renews, service.term, periodOf(service), ctx.timezone, began);
    credit = share.credit;
    charge = samePeriod ? share.charge : newPrice;
  } else if (!samePeriod) charge = newPrice;
  if (!samePeriod) dateRenews = nextRenewDate(now, next.term, next.period as Period, ctx.timezone);

  // Netting adds amounts of one currency only: a move to a pricing in another currency credits the
  // unused time in the old currency and invoices the new price in its own (¥5000 less $50 was
  // credited as ¥4950, leaving the $50 unbilled). Each is rounded to its currency's precision, as an
  // invoice rounds its total, half away from zero both ways: unrounded, a downgrade credited
  // $0.0017 that the upgrade's invoice had rounded to $0.00, so changing back and forth paid the client.
  const currency = serviceCurrency(service);
  // A change of options alone is invoiced in the currency the service is billed in (its override's).
  const invoiceCurrency = newPricingId === service.pricing_id ? currency : next.currency;
  const sameCurrency = currency === invoiceCurrency;
  const net = roundTo(sameCurrency ? charge.minus(credit) : charge, await precisionOf(ctx, invoiceCurrency));
  const refund = sameCurrency ? net.negated() : roundTo(credit, await precisionOf(ctx, currency));
  return { next, dateRenews, net, refund, currency, invoiceCurrency };
}

/** Digits after the point of a company's currency; the stored four when the currency is gone. */
async function precisionOf(ctx: CallContext, code: string): Promise<number> {
  const currency = await findCurrency(ctx.db, ctx.companyId, code);
  return currency ? Number(currency.precision) : 4;
}

/**
 * A change's invoice is kept as a service period from the change on, keyed by its start to the
 * second: a second change within the same second (a form sent twice) takes the next free second
 * rather than failing on the key with a 500.
 */
async function freeChangeStart(ctx: CallContext, serviceId: number, now: string): Promise<string> {
  const taken = new Set((await ctx.db.selectFrom('service_invoices').select('period_start').where('service_id', '=', serviceId).where('period_start', '>=', now).execute()).map((r) => r.period_start));
  let start = now;
  while (taken.has(start)) start = formatUtc(new Date(Date.parse(`${start.replace(' ', 'T')}Z`) + 1000));
  return start;
}
