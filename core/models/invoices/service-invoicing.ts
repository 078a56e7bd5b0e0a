import { CallContext } from '../../kernel/call-context';
import { ModelCalls } from '../../kernel/model-calls';
import { TallyError } from '../../kernel/tally-error';
import { formatUtc } from '../../kernel/timestamps';
import { requireService, serviceCurrency, serviceQuery } from '../../billing/service-store';
import { draftServiceInvoice, invoiceServices, loadBooks, recordPeriods } from '../../billing/from-services';
import { filteredInvoices } from './invoice-filters';
import { presentSummary } from './invoice-store';

/**
 * invoices/createRenewalFromService, appendServices and getAllWithService: the reference's other
 * ways of invoicing services, on the same path as createFromServices (one service period is
 * invoiced once, whichever way).
 */

const termCyclesError = { term_cycles: { format: 'The term cycles must be 1 to 120.' } };

/** The next term_cycles terms of one service, on a new invoice due on its renew date; its renew date moves on. */
export async function createRenewalFromService(ctx: CallContext, calls: ModelCalls, serviceId: number, termCycles: number, pricingId: number | null): Promise<number> {
  const service = await requireService(ctx.db, ctx.companyId, serviceId);
  if (termCycles < 1 || termCycles > 120) throw TallyError.invalid(termCyclesError);
  if (service.status === 'canceled') throw TallyError.invalid({ service_id: { canceled: 'A canceled service does not renew.' } });
  if (pricingId !== null && pricingId !== service.pricing_id) {
    throw TallyError.invalid({ pricing_id: { change: "A renewal is invoiced at the service's own pricing: move it to another with services/edit (vars[pricing_id]) first." } });
  }
  const now = formatUtc(new Date());
  return invoiceServices(ctx, calls, service.client_id, [service], { currency: serviceCurrency(service), dueDate: service.date_renews ?? now, allowProRata: false, renew: true, termCycles, now });
}

/** New services' first periods (prorated, with setup fees and coupons) added as lines of an open invoice of their client. */
export async function appendServices(ctx: CallContext, calls: ModelCalls, invoiceId: number, rawIds: unknown): Promise<number> {
  const invoice = await ctx.db
    .selectFrom('invoices')
    .select(['id', 'client_id', 'currency', 'status', 'date_closed'])
    .where('company_id', '=', ctx.companyId)
    .where('id', '=', invoiceId)
    .executeTakeFirst();
  if (!invoice) throw TallyError.invalid({ invoice_id: { exists: 'Invalid invoice ID.' } });
  if (invoice.status === 'void' || invoice.date_closed !== null) throw TallyError.invalid({ invoice_id: { open: 'Services are appended only to an open invoice (not paid, not void).' } });
  const ids = serviceIds(rawIds);
  const services = await serviceQuery(ctx.db, ctx.companyId).where('services.id', 'in', ids).orderBy('services.id').execute();
  if (services.length !== ids.length) throw TallyError.invalid({ service_ids: { exists: 'Invalid service ID.' } });
  const now = formatUtc(new Date());
  const { lines, periods } = draftServiceInvoice(
    ctx.timezone,
    invoice.client_id,
    services,
    { currency: invoice.currency, dueDate: now, allowProRata: true, renew: false, termCycles: 1, now },
    await loadBooks(ctx.db, services),
  );
  // invoices/edit adds lines without an id and keeps the others; it re-totals and re-taxes the invoice.
  await calls.call(ctx, 'invoices', 'edit', { invoice_id: invoiceId, vars: { lines } });
  await recordPeriods(ctx.db, [{ invoiceId, periods }]);
  return invoiceId;
}

/** Invoices that bill a period of the service, by status (as getList's), oldest first. */
export async function invoicesWithService(ctx: CallContext, serviceId: number, status: string) {
  const rows = await filteredInvoices(ctx.db, ctx.companyId, null, status)
    .where((eb) =>
      eb.exists(
        eb.selectFrom('service_invoices').select('service_invoices.invoice_id').whereRef('service_invoices.invoice_id', '=', 'invoices.id').where('service_invoices.service_id', '=', serviceId),
      ),
    )
    .orderBy('id')
    .execute();
  return rows.map(presentSummary);
}

/** service_ids as a list of distinct ids (one id alone, a list, or bracket keys). */
function serviceIds(raw: unknown): number[] {
  const values = Array.isArray(raw) ? raw : raw && typeof raw === 'object' ? Object.values(raw) : [raw];
  const ids = values.map((v) => (typeof v === 'number' || (typeof v === 'string' && /^\d{1,12}$/.test(v)) ? Number(v) : NaN));
  if (!ids.length || ids.some((id) => !Number.isSafeInteger(id))) throw TallyError.invalid({ service_ids: { format: 'Please give the ids of the services to invoice.' } });
  return [...new Set(ids)];
}
