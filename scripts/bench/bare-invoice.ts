import Koa from 'koa';
import { sql } from 'kysely';
import { Db } from '../../core/db/schema';

const NOW = '2026-01-01 00:00:00';

/**
 * The database work of a 10-line invoices/add, without Tally: in one transaction, check the
 * client, advance the company's counter, insert the invoice, its lines, its tax and its delivery
 * methods. Totals are fixed numbers: the bare route does no arithmetic, parsing or validation.
 */
export async function bareInvoiceAdd(db: Db, ctx: Koa.Context): Promise<void> {
  const clientId = Number(ctx.query.client_id);
  const id = await db.transaction().execute(async (trx) => {
    const client = await trx.selectFrom('clients').select('id').where('id', '=', clientId).where('company_id', '=', 1).executeTakeFirstOrThrow();
    await trx
      .insertInto('company_counters')
      .values({ company_id: 1, name: 'bare_invoice', value: 0 })
      .onConflict((oc) => oc.columns(['company_id', 'name']).doNothing())
      .execute();
    const counter = await trx
      .updateTable('company_counters')
      .set({ value: sql`value + 1` })
      .where('company_id', '=', 1)
      .where('name', '=', 'bare_invoice')
      .returning('value')
      .executeTakeFirstOrThrow();
    const invoice = await trx
      .insertInto('invoices')
      .values({
        company_id: 1,
        client_id: client.id,
        number_value: null,
        number: `bare-${counter.value}`,
        status: 'active',
        currency: 'USD',
        subtotal: '1234.5600',
        tax: '54.7600',
        total: '1289.3200',
        paid: '0.0000',
        date_billed: NOW,
        date_due: NOW,
        date_closed: null,
        date_added: NOW,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const lines = Array.from({ length: 10 }, (_, i) => ({
      invoice_id: invoice.id,
      line_order: i,
      description: `Service ${i + 1}`,
      qty: '1.0000',
      amount: '12.3400',
      taxable: i % 2,
    }));
    await trx
      .insertInto('invoice_lines')
      .values(lines as never)
      .execute();
    await trx
      .insertInto('invoice_taxes')
      .values({ invoice_id: invoice.id, tax_id: null, level: 1, name: 'Bench sales tax', rate: '8.8750', type: 'exclusive', amount: '54.7600' } as never)
      .execute();
    await trx
      .insertInto('invoice_delivery')
      .values([
        { invoice_id: invoice.id, method: 'email', date_sent: null },
        { invoice_id: invoice.id, method: 'paper', date_sent: null },
      ] as never)
      .execute();
    return invoice.id;
  });
  ctx.body = { response: id };
}
