import { Tx } from '../db/schema';

/** Removes a recurring invoice with its lines and delivery methods; the invoices it made stay, and forget it. */
export async function deleteRecurringRows(db: Tx, recurIds: readonly number[]): Promise<void> {
  if (!recurIds.length) return;
  for (const table of ['invoice_recur_lines', 'invoice_recur_delivery', 'invoices_recur_created'] as const) {
    await db.deleteFrom(table).where('invoice_recur_id', 'in', recurIds).execute();
  }
  await db.deleteFrom('invoices_recur').where('id', 'in', recurIds).execute();
}
