import { Tx } from '../db/schema';
import { serviceQuery } from './service-store';

/**
 * The queues the billing run works through, each a query over services and the invoices that bill
 * them. Services lists them too (getAllRenewing, getAllPaidPending, ...), so what the API shows
 * is what the next run will do.
 */

/** Open: billed and not yet paid (drafts and void invoices are neither). */
const openInvoice = (eb: any) => eb.and([eb('invoices.status', 'in', ['active', 'proforma']), eb('invoices.date_closed', 'is', null)]);

/** Services renewing on or before `untilUtc` that are not cancelled by then (one-time ones never renew). */
export function renewingQuery(db: Tx, companyId: number, untilUtc: string, includeSuspended: boolean) {
  return serviceQuery(db, companyId)
    .where('services.status', 'in', includeSuspended ? ['active', 'suspended'] : ['active'])
    .where('services.date_renews', 'is not', null)
    .where('services.date_renews', '<=', untilUtc)
    .where('pricings.period', '!=', 'onetime')
    .where((eb) => eb.or([eb('services.date_canceled', 'is', null), eb('services.date_canceled', '>', eb.ref('services.date_renews'))]));
}

/** Pending services whose first invoice is paid: ready to provision. */
export function paidPendingQuery(db: Tx, companyId: number) {
  return serviceQuery(db, companyId)
    .where('services.status', '=', 'pending')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('service_invoices')
          .innerJoin('invoices', 'invoices.id', 'service_invoices.invoice_id')
          .select('service_invoices.service_id')
          .whereRef('service_invoices.service_id', '=', 'services.id')
          .where('service_invoices.kind', '=', 'new')
          .where('invoices.date_closed', 'is not', null)
          .where('invoices.status', 'in', ['active', 'proforma']),
      ),
    );
}

/** Paid renewals the module has not been told about yet. */
export function renewablePaidQuery(db: Tx, companyId: number) {
  return serviceQuery(db, companyId)
    .innerJoin('service_invoices', 'service_invoices.service_id', 'services.id')
    .innerJoin('invoices', 'invoices.id', 'service_invoices.invoice_id')
    .select(['service_invoices.period_start', 'service_invoices.invoice_id'])
    .where('services.status', 'in', ['active', 'suspended'])
    .where('service_invoices.kind', '=', 'renew')
    .where('service_invoices.date_processed', 'is', null)
    .where('invoices.date_closed', 'is not', null)
    .where('invoices.status', 'in', ['active', 'proforma']);
}

/** Active services with an invoice still open at `cutoffUtc` after its due date. */
export function pendingSuspensionQuery(db: Tx, companyId: number, cutoffUtc: string) {
  return serviceQuery(db, companyId)
    .where('services.status', '=', 'active')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('service_invoices')
          .innerJoin('invoices', 'invoices.id', 'service_invoices.invoice_id')
          .select('service_invoices.service_id')
          .whereRef('service_invoices.service_id', '=', 'services.id')
          .where(openInvoice)
          .where('invoices.date_due', '<=', cutoffUtc),
      ),
    );
}

/** Services the run suspended that no longer have an overdue open invoice. */
export function pendingUnsuspensionQuery(db: Tx, companyId: number, cutoffUtc: string) {
  return serviceQuery(db, companyId)
    .where('services.status', '=', 'suspended')
    .where('services.auto_suspended', '=', 1)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('service_invoices')
            .innerJoin('invoices', 'invoices.id', 'service_invoices.invoice_id')
            .select('service_invoices.service_id')
            .whereRef('service_invoices.service_id', '=', 'services.id')
            .where(openInvoice)
            .where('invoices.date_due', '<=', cutoffUtc),
        ),
      ),
    );
}

/** Services whose scheduled cancellation date has come. */
export function pendingCancelationQuery(db: Tx, companyId: number, nowUtc: string) {
  return serviceQuery(db, companyId)
    .where('services.status', 'in', ['active', 'suspended', 'pending', 'in_review'])
    .where('services.date_canceled', 'is not', null)
    .where('services.date_canceled', '<=', nowUtc);
}
