import { Tx } from '../db/schema';
import { Amount, stored, toStored } from '../kernel/money';
import { emitAll, NewEvent } from '../events/emit';
import type { Period } from './service-period';

/** One invoice made from services, as its events tell it. */
export interface ServiceInvoiceMade {
  readonly invoiceId: number;
  readonly clientId: number;
  readonly currency: string;
  readonly total: Amount;
  readonly due: string;
  readonly periods: readonly Period[];
}

/**
 * Invoices.createFromServices for each invoice and Services.renew for each service period renewed,
 * written together (the billing run's batches write hundreds in a few statements). The payloads
 * are what the run knows without reading the invoices again.
 */
export function emitServiceInvoices(db: Tx, companyId: number, made: readonly ServiceInvoiceMade[]): Promise<void> {
  const events: NewEvent[] = [];
  for (const invoice of made) {
    const serviceIds = [...new Set(invoice.periods.map((p) => p.serviceId))];
    events.push({
      companyId,
      type: 'Invoices.createFromServices',
      payload: { invoice_id: invoice.invoiceId, client_id: invoice.clientId, currency: invoice.currency, total: toStored(invoice.total), date_due: invoice.due, service_ids: serviceIds },
    });
    for (const period of invoice.periods) {
      if (period.kind === 'renew')
        events.push({ companyId, type: 'Services.renew', payload: { service_id: period.serviceId, client_id: invoice.clientId, invoice_id: invoice.invoiceId, date_renews: period.end } });
    }
  }
  return emitAll(db, events);
}

/** An invoice invoices/add has just made, read back for its events. */
export async function madeFrom(ctx: { db: Tx; companyId: number }, invoiceId: number, periods: readonly Period[]): Promise<ServiceInvoiceMade> {
  const row = await ctx.db.selectFrom('invoices').select(['client_id', 'currency', 'total', 'date_due']).where('id', '=', invoiceId).where('company_id', '=', ctx.companyId).executeTakeFirstOrThrow();
  return { invoiceId, clientId: row.client_id, currency: row.currency, total: stored(row.total), due: row.date_due, periods };
}
