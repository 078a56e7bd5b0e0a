import { CallContext } from '../../kernel/call-context';
import { assertValid } from '../../kernel/input-rules';
import { TallyError } from '../../kernel/tally-error';
import { formatUtc } from '../../kernel/timestamps';
import { InvoiceRules } from '../../billing/invoice-rules';
import { recurringPartRules } from '../../billing/recurring-invoice-rules';
import { nextRenewDate, Period } from '../../billing/renew-dates';
import { readInvoice } from './invoice-store';
import { RecurringInvoices } from './recurring-invoices';

/** invoices/add's and edit's recurring keys, as a draft keeps them in its `recur` meta. */
const KEYS = ['term', 'period', 'duration', 'duration_time', 'recur_date_billed'] as const;
type RecurringPart = Partial<Record<(typeof KEYS)[number], unknown>>;

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Whether `vars` asks for a recurring invoice (a term that is not blank, as the reference reads it). */
export function recurs(vars: Record<string, unknown>): boolean {
  return !blank(vars.term);
}

/** Checks the recurring part of invoices/add or edit (nothing when term is blank). */
export function checkRecurringPart(ctx: CallContext, vars: Record<string, unknown>): Promise<void> {
  return assertValid(vars, recurringPartRules(new InvoiceRules(ctx.db, ctx.companyId, ctx.timezone)));
}

/**
 * What invoices/add does with `term`, as the reference does: a draft keeps the recurring part in
 * its `recur` meta (until it stops being a draft); any other invoice makes a recurring invoice of
 * its client, currency, notes, delivery methods and lines (without service_id: a recurring line
 * bills no service), whose first invoice is made on recur_date_billed — one term after date_billed
 * when blank. With duration 'times', duration_time more invoices are made after this one.
 */
export async function applyRecurringPart(ctx: CallContext, recurring: RecurringInvoices, invoiceId: number, part: RecurringPart): Promise<number | null> {
  const invoice = await readInvoice(ctx.db, ctx.companyId, invoiceId);
  if (!invoice) return null;
  if (invoice.status === 'draft') {
    const kept = Object.fromEntries(KEYS.map((k) => [k, part[k] ?? null]));
    await ctx.db
      .insertInto('invoice_meta')
      .values({ invoice_id: invoiceId, key: 'recur', value: JSON.stringify(kept) })
      .onConflict((oc) => oc.columns(['invoice_id', 'key']).doUpdateSet({ value: JSON.stringify(kept) }))
      .execute();
    return null;
  }
  const term = Number(part.term);
  const period = String(part.period) as Period;
  const renews = blank(part.recur_date_billed)
    ? nextRenewDate(invoice.date_billed, term, period, ctx.timezone)!
    : formatUtc(new InvoiceRules(ctx.db, ctx.companyId, ctx.timezone).time(part.recur_date_billed)!);
  const recurId = await recurring.addRecurring({
    client_id: invoice.client_id,
    term: part.term,
    period: part.period,
    duration: part.duration === 'times' ? part.duration_time : '',
    currency: invoice.currency,
    date_renews: `${renews} UTC`,
    note_public: invoice.note_public ?? '',
    note_private: invoice.note_private ?? '',
    lines: invoice.line_items.map((l) => ({ description: l.description, qty: l.qty, amount: l.amount, tax: l.tax })),
    delivery: invoice.delivery,
  });
  await ctx.db.deleteFrom('invoice_meta').where('invoice_id', '=', invoiceId).where('key', '=', 'recur').execute();
  return recurId;
}

/**
 * invoices/edit's recurring keys: only a draft takes them (as the reference; on another invoice
 * they are refused rather than ignored). A draft that stops being one makes its recurring invoice
 * from the keys given, else from those its `recur` meta kept; a blank term forgets them.
 */
export async function editRecurringPart(ctx: CallContext, recurring: RecurringInvoices, invoiceId: number, wasDraft: boolean, vars: Record<string, unknown>): Promise<void> {
  const given = KEYS.some((k) => vars[k] !== undefined);
  if (!wasDraft) {
    if (given && recurs(vars))
      throw TallyError.invalid({ term: { draft: 'Only a draft invoice takes a recurring part (term, period, duration); add a recurring invoice with invoices/addRecurring instead.' } });
    return;
  }
  if (given && !recurs(vars)) {
    await ctx.db.deleteFrom('invoice_meta').where('invoice_id', '=', invoiceId).where('key', '=', 'recur').execute();
    return;
  }
  if (given) {
    await applyRecurringPart(ctx, recurring, invoiceId, Object.fromEntries(KEYS.map((k) => [k, vars[k]])));
    return;
  }
  const meta = await ctx.db.selectFrom('invoice_meta').select('value').where('invoice_id', '=', invoiceId).where('key', '=', 'recur').executeTakeFirst();
  const kept = meta ? (JSON.parse(meta.value) as RecurringPart) : null;
  if (kept && recurs(kept as Record<string, unknown>)) await applyRecurringPart(ctx, recurring, invoiceId, kept);
}
