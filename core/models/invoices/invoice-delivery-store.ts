import { Tx } from '../../db/schema';

/**
 * The invoice deliveries of one company: a delivery is the company's through its invoice, so
 * another company's is never found.
 */
export function deliveryQuery(db: Tx, companyId: number) {
  return db
    .selectFrom('invoice_delivery')
    .innerJoin('invoices', 'invoices.id', 'invoice_delivery.invoice_id')
    .select(['invoice_delivery.id', 'invoice_delivery.invoice_id', 'invoice_delivery.method', 'invoice_delivery.date_sent', 'invoices.client_id', 'invoices.number', 'invoices.status'])
    .where('invoices.company_id', '=', companyId);
}

type DeliveryRow = Awaited<ReturnType<ReturnType<typeof deliveryQuery>['executeTakeFirstOrThrow']>>;

/** A delivery record as the reference keeps it (getDelivery, getAllDelivery). */
export function deliveryRecord(row: DeliveryRow) {
  return { id: row.id, invoice_id: row.invoice_id, method: row.method, date_sent: row.date_sent };
}

/** A delivery as getDeliveryList answers it: the record, and its invoice's client, number and status. */
export function presentDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    invoice_id: row.invoice_id,
    method: row.method,
    date_sent: row.date_sent,
    client_id: row.client_id,
    invoice_id_code: row.number ?? `DRAFT-${row.invoice_id}`,
    invoice_status: row.status,
  };
}
