import { Updateable } from 'kysely';
import { InvoicesTable } from '../../db/schema';
import { CallContext } from '../../kernel/call-context';
import { FieldErrors } from '../../kernel/errors';
import { assertValid } from '../../kernel/input-rules';
import { TallyError } from '../../kernel/tally-error';
import { formatUtc } from '../../kernel/timestamps';
import { findClientLocation } from '../../billing/client-store';
import { LockedInvoice, lockInvoice } from '../../billing/invoice-lock';
import { deliveryList, InvoiceRules } from '../../billing/invoice-rules';
import { storedLines, writeDelivery, writeLinesAndTaxes } from './invoice-store';
import { lineList } from '../../billing/lines';
import { mergeLineEdits } from './line-edits';
import { ownedServiceIds } from '../../billing/line-services';
import { optionalText } from '../../billing/values';
import { unapplyAll } from '../../billing/applying';
import { closedDate } from '../../billing/settlement';
import { totalFor } from './totalling';
import { storedTotals } from '../../billing/totals';
import { cancelInvoiceEmail } from '../../delivery/cancel-invoice-email';

/** Where an invoice's status may go through invoices/edit; void is final. */
const NEXT_STATUSES: Record<string, readonly string[]> = {
  draft: ['draft', 'active', 'proforma', 'void'],
  proforma: ['proforma', 'active', 'void'],
  active: ['active', 'void'],
};

/**
 * Voids a locked invoice of the company: payments applied to it go back to the client's credit; it
 * keeps its number; its delivery message still waiting in the mail outbox is cancelled.
 */
export async function voidInvoice(db: CallContext['db'], companyId: number, invoice: LockedInvoice): Promise<void> {
  if (invoice.status === 'void') return;
  await unapplyAll(db, invoice.id);
  await cancelInvoiceEmail(db, companyId, invoice.id, 'voided');
  await db
    .updateTable('invoices')
    .set({ status: 'void', paid: '0.0000', date_closed: formatUtc(new Date()) })
    .where('id', '=', invoice.id)
    .execute();
}

/**
 * invoices/edit: changes what `vars` names, under the invoice's row lock. Lines (merged by id, see
 * line-edits.ts), client or currency re-total the invoice with the client's current taxes; otherwise
 * the taxes it was billed with stay. `vars[status]=void` voids it, as the reference does.
 */
export class InvoiceEditor {
  constructor(
    private readonly ctx: CallContext,
    private readonly nextNumber: () => Promise<{ value: number; text: string }>,
  ) {}

  async edit(invoiceId: number, vars: Record<string, unknown>): Promise<void> {
    const db = this.ctx.db;
    const invoice = await lockInvoice(db, this.ctx.companyId, invoiceId);
    if (invoice.status === 'void') throw TallyError.invalid({ invoice_id: { void: 'A void invoice cannot be edited.' } });
    const rules = new InvoiceRules(db, this.ctx.companyId, this.ctx.timezone);
    // The stored dates stand in for the one not given, so date_due.after_billed compares the right pair.
    const merged = { date_billed: `${invoice.date_billed} UTC`, date_due: `${invoice.date_due} UTC`, ...vars };
    await assertValid(merged, rules.ruleSet(merged, true));
    const problems = this.refusals(invoice, vars);
    if (problems) throw TallyError.invalid(problems);

    if (vars.status === 'void') return voidInvoice(db, this.ctx.companyId, invoice);
    const now = formatUtc(new Date());
    const status = typeof vars.status === 'string' ? vars.status : invoice.status;
    const changes: Updateable<InvoicesTable> = { status };
    for (const note of ['note_public', 'note_private'] as const) if (vars[note] !== undefined) changes[note] = optionalText(vars[note]);
    if (vars.date_autodebit !== undefined) changes.date_autodebit = optionalText(vars.date_autodebit) === null ? null : formatUtc(rules.time(vars.date_autodebit)!);
    if (vars.date_billed !== undefined) changes.date_billed = formatUtc(rules.time(vars.date_billed)!);
    if (vars.date_due !== undefined) changes.date_due = formatUtc(rules.time(vars.date_due)!);
    let total = invoice.total;
    if (vars.lines !== undefined || vars.client_id !== undefined || vars.currency !== undefined) {
      const client = rules.client ?? (await findClientLocation(db, this.ctx.companyId, invoice.client_id))!;
      const currency = typeof vars.currency === 'string' ? vars.currency : invoice.currency;
      const stored = await storedLines(db, invoiceId);
      const named = [...stored.map((l) => l.serviceId), ...lineList(vars.lines).map((l) => l.service_id)];
      const clientServices = await ownedServiceIds(db, this.ctx.companyId, client.id, named);
      // Moved to another client, the invoice cannot keep lines billing its former client's services.
      if (client.id !== invoice.client_id && stored.some((l) => l.serviceId !== null && l.serviceId !== undefined && !clientServices.has(l.serviceId))) {
        throw TallyError.invalid({ client_id: { services: 'The invoice bills services of its client: it cannot move to another client.' } });
      }
      const lines = vars.lines !== undefined ? mergeLineEdits(stored, vars.lines, clientServices) : stored;
      const totals = await totalFor(db, this.ctx.companyId, this.ctx.systemKey, client, currency, lines);
      if (totals.total.lessThan(invoice.paid)) {
        throw TallyError.invalid({ total: { paid: 'The invoice total cannot be less than what has been paid on it; refund or unapply a payment first.' } });
      }
      Object.assign(changes, storedTotals(totals), { client_id: client.id, currency });
      await writeLinesAndTaxes(db, invoiceId, lines, totals);
      total = totals.total;
    }
    if (invoice.status === 'draft' && status !== 'draft') {
      const number = await this.nextNumber();
      changes.number_value = number.value;
      changes.number = number.text;
    }
    changes.date_closed = closedDate(status, total, invoice.paid, invoice.date_closed, now);
    await db.updateTable('invoices').set(changes).where('id', '=', invoiceId).execute();
    if (vars.delivery !== undefined) await writeDelivery(db, invoiceId, deliveryList(vars.delivery));
  }

  /** Changes the rules allow in general but this invoice's state does not. */
  private refusals(invoice: LockedInvoice, vars: Record<string, unknown>): FieldErrors | null {
    const errors: FieldErrors = {};
    const hasPayments = invoice.paid.greaterThan(0);
    if (hasPayments && vars.client_id !== undefined && Number(vars.client_id) !== invoice.client_id) {
      errors.client_id = { paid: 'The client of an invoice with payments applied cannot be changed.' };
    }
    if (hasPayments && vars.currency !== undefined && vars.currency !== invoice.currency) {
      errors.currency = { paid: 'The currency of an invoice with payments applied cannot be changed.' };
    }
    if (typeof vars.status === 'string' && !NEXT_STATUSES[invoice.status]?.includes(vars.status)) {
      errors.status = { transition: `An invoice cannot go from ${invoice.status} to ${vars.status}.` };
    }
    return Object.keys(errors).length ? errors : null;
  }
}
