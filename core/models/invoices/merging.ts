import { CallContext } from '../../kernel/call-context';
import { FieldErrors } from '../../kernel/errors';
import { ZERO } from '../../kernel/money';
import { TallyError } from '../../kernel/tally-error';
import { formatUtc } from '../../kernel/timestamps';
import { findClient } from '../../billing/client-store';
import { voidInvoice } from './invoice-editor';
import { LockedInvoice, lockInvoices } from '../../billing/invoice-lock';
import { storedLines, writeLinesAndTaxes } from './invoice-store';
import { LineInput } from '../../billing/lines';
import { closedDate } from '../../billing/settlement';
import { totalFor } from './totalling';
import { storedTotals } from '../../billing/totals';

type NextNumber = () => Promise<{ value: number; text: string }>;

/** Invoices whose lines may move: open (active, proforma or draft, not closed) and with nothing paid on them. */
function movable(invoice: LockedInvoice): string | null {
  if (!['active', 'proforma', 'draft'].includes(invoice.status) || invoice.date_closed !== null) return 'Only open invoices can be merged or split.';
  if (invoice.paid.greaterThan(0)) return 'An invoice with payments applied cannot be merged or split; unapply them first.';
  return null;
}

/**
 * invoices/merge: moves the lines of open invoices of one client and currency onto one of them
 * (`invoice_id`) or onto a new invoice, re-totalled with the client's taxes; the others are voided
 * (drafts deleted), so numbers stay gap-free. Answers the merged invoice's id.
 */
export async function mergeInvoices(ctx: CallContext, invoiceIds: number[], targetId: number | null, nextNumber: NextNumber): Promise<number> {
  const ids = [...new Set(targetId === null ? invoiceIds : [targetId, ...invoiceIds])];
  const locked = await lockInvoices(ctx.db, ctx.companyId, ids);
  const errors: FieldErrors = {};
  ids.forEach((id) => {
    const invoice = locked.find((l) => l.id === id);
    const key = id === targetId ? 'invoice_id' : `invoice_ids[${invoiceIds.indexOf(id)}]`;
    const problem = !invoice
      ? 'Invalid invoice ID.'
      : (movable(invoice) ?? (invoice.client_id !== locked[0].client_id || invoice.currency !== locked[0].currency ? 'Merged invoices must be of one client and one currency.' : null));
    if (problem) errors[key] = { [invoice ? 'merge' : 'exists']: problem };
  });
  if (ids.length < 2) errors.invoice_ids = { minimum: 'Name at least two invoices to merge.' };
  if (Object.keys(errors).length) throw TallyError.invalid(errors);
  const byId = new Map(locked.map((l) => [l.id, l]));
  const lines: LineInput[] = [];
  for (const id of ids) lines.push(...(await storedLines(ctx.db, id)).map((l) => (id === targetId ? l : { ...l, id: undefined })));
  const first = byId.get(ids[0])!;
  const target = targetId ?? (await newInvoiceLike(ctx, first, nextNumber));
  await retotal(ctx, target, first, lines);
  for (const id of ids) if (id !== target) await retire(ctx, byId.get(id)!);
  return target;
}

/** invoices/split: moves the named lines of an open invoice onto a new invoice like it. Answers the new id. */
export async function splitInvoice(ctx: CallContext, invoiceId: number, lineIds: number[], nextNumber: NextNumber): Promise<number> {
  const [invoice] = await lockInvoices(ctx.db, ctx.companyId, [invoiceId]);
  if (!invoice) throw TallyError.invalid({ invoice_id: { exists: 'Invalid invoice ID.' } });
  const problem = movable(invoice);
  if (problem) throw TallyError.invalid({ invoice_id: { split: problem } });
  const lines = await storedLines(ctx.db, invoiceId);
  const unknown = lineIds.filter((id) => !lines.some((l) => l.id === id));
  if (unknown.length) throw TallyError.invalid({ line_items: { exists: `Not lines of this invoice: ${unknown.join(', ')}.` } });
  const moving = lines.filter((l) => lineIds.includes(l.id!));
  if (moving.length === 0 || moving.length === lines.length) throw TallyError.invalid({ line_items: { count: "Name some, but not all, of the invoice's line ids to move." } });
  const created = await newInvoiceLike(ctx, invoice, nextNumber);
  // The lines move first (keeping their ids), then each invoice is re-totalled over its own.
  await ctx.db.updateTable('invoice_lines').set({ invoice_id: created }).where('invoice_id', '=', invoiceId).where('id', 'in', lineIds).execute();
  await retotal(
    ctx,
    invoiceId,
    invoice,
    lines.filter((l) => !lineIds.includes(l.id!)),
  );
  await retotal(ctx, created, invoice, moving);
  return created;
}

/** A new invoice with the client, currency, dates and status of `like`, numbered unless a draft; totals come later. */
async function newInvoiceLike(ctx: CallContext, like: LockedInvoice, nextNumber: NextNumber): Promise<number> {
  const numbered = like.status === 'draft' ? null : await nextNumber();
  const row = await ctx.db
    .insertInto('invoices')
    .values({
      company_id: ctx.companyId,
      client_id: like.client_id,
      number_value: numbered?.value ?? null,
      number: numbered?.text ?? null,
      status: like.status,
      currency: like.currency,
      subtotal: '0.0000',
      tax: '0.0000',
      total: '0.0000',
      paid: '0.0000',
      date_billed: like.date_billed,
      date_due: like.date_due,
      date_closed: null,
      date_added: formatUtc(new Date()),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Writes `lines` as the invoice's lines and totals it with the client's current taxes. */
async function retotal(ctx: CallContext, invoiceId: number, like: LockedInvoice, lines: LineInput[]): Promise<void> {
  const client = (await findClient(ctx.db, ctx.companyId, like.client_id))!;
  const totals = await totalFor(ctx.db, ctx.companyId, ctx.systemKey, client, like.currency, lines);
  await writeLinesAndTaxes(ctx.db, invoiceId, lines, totals);
  const closed = closedDate(like.status, totals.total, ZERO, null, formatUtc(new Date()));
  await ctx.db
    .updateTable('invoices')
    .set({ ...storedTotals(totals), date_closed: closed })
    .where('id', '=', invoiceId)
    .execute();
}

/** A merged-away invoice: a draft is deleted, a numbered one voided (its number stays used). */
async function retire(ctx: CallContext, invoice: LockedInvoice): Promise<void> {
  if (invoice.status !== 'draft') return voidInvoice(ctx.db, ctx.companyId, invoice);
  for (const table of ['invoice_lines', 'invoice_taxes', 'invoice_delivery', 'invoice_meta'] as const) await ctx.db.deleteFrom(table).where('invoice_id', '=', invoice.id).execute();
  await ctx.db.deleteFrom('invoices').where('id', '=', invoice.id).execute();
}
