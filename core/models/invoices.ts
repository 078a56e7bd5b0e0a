import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { assertValid } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { any, bool, int, list, object, string } from '../kernel/parameter';
import { ModelCalls } from '../kernel/model-calls';
import { createFromServices } from './invoices/create-from-services';
import { appendServices, createRenewalFromService, invoicesWithService } from './invoices/service-invoicing';
import { TallyError } from '../kernel/tally-error';
import { ZERO } from '../kernel/money';
import { formatUtc } from '../kernel/timestamps';
import { optionalText, wholeNumber } from '../billing/values';
import { mergeInvoices, splitInvoice } from './invoices/merging';
import { InvoiceEditor, voidInvoice } from './invoices/invoice-editor';
import { deliveryList, InvoiceRules } from '../billing/invoice-rules';
import { InvoiceQueries } from './invoices/invoice-queries';
import { InvoicePdfs } from './invoices/invoice-pdfs';
import { InvoiceDeliveries } from './invoices/invoice-deliveries';
import { AutodebitAttempts } from './invoices/autodebit-attempts';
import { queueEmailDelivery } from '../delivery/invoice-email';
import { cancelInvoiceEmail } from '../delivery/cancel-invoice-email';
import { insertInvoice, writeDelivery, writeLinesAndTaxes } from './invoices/invoice-store';
import { readLines } from '../billing/lines';
import { allocateInvoiceNumber, formatInvoiceNumber, numberingSettings, setInvoiceNumber } from '../billing/numbering';
import { closedDate } from '../billing/settlement';
import { storedTotals } from '../billing/totals';
import { invalidInvoice, lockInvoice } from '../billing/invoice-lock';
import { settingKeyRules } from '../billing/owner-settings';
import { totalFor } from './invoices/totalling';
import { bool as boolShape, int as count, nothing } from '../kernel/shape';
import { INVOICE, INVOICE_ADD, INVOICE_EDIT, INVOICE_SUMMARIES } from './invoices.fields';
import { emit } from '../events/emit';
import { emitInvoiceClosed } from '../events/invoice-closed';
import { RecurringInvoices } from './invoices/recurring-invoices';
import { InvoiceHelpers } from './invoices/invoice-helpers';
import { applyRecurringPart, checkRecurringPart, editRecurringPart, recurs } from './invoices/recurring-part';

/**
 * Invoices of the caller's company, with the reference's signatures and record shape (reading
 * methods in the InvoiceQueries facet, invoices/invoice-queries.ts). Numbers are given when an invoice stops being a draft,
 * from the company's sequence (invoice_format, invoice_start settings); money is exact (decimal.js)
 * and answered as decimal strings with four places, totals rounded to the currency's precision.
 */
@model('invoices', { facets: [InvoiceQueries, RecurringInvoices, InvoiceHelpers, InvoicePdfs, InvoiceDeliveries, AutodebitAttempts] })
export class Invoices {
  constructor(
    private readonly ctx: CallContext,
    private readonly calls: ModelCalls,
    private readonly queries: InvoiceQueries,
    private readonly recurring: RecurringInvoices,
  ) {}

  @callable({
    description:
      "Create an invoice from vars[client_id], vars[date_billed], vars[date_due], vars[currency], vars[lines][i][description], vars[lines][i][amount] (unit cost), optional vars[lines][i][qty] (default 1) and vars[lines][i][tax] (true: the client's taxes apply), vars[delivery][] (email, paper, interfax, postalmethods), vars[status] (active, draft, proforma, void; default active), vars[note_public], vars[note_private], vars[date_autodebit]; vars[term] (1-65535) with vars[period] (day, week, month, year), vars[duration] (indefinitely, or times with vars[duration_time]) and vars[recur_date_billed] (blank: one term after date_billed) also make a recurring invoice of it (a draft keeps them until it is no longer one). Returns the invoice id.",
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: INVOICE_ADD,
    returns: count({ description: 'The new invoice id.' }),
  })
  async add(vars: Record<string, unknown>) {
    const rules = new InvoiceRules(this.ctx.db, this.ctx.companyId, this.ctx.timezone);
    await assertValid(vars, rules.ruleSet(vars, false));
    await checkRecurringPart(this.ctx, vars);
    const client = rules.client!;
    const currency = String(vars.currency);
    const lines = readLines(vars.lines, rules);
    const totals = await totalFor(this.ctx.db, this.ctx.companyId, this.ctx.systemKey, client, currency, lines, rules.currency);
    const status = typeof vars.status === 'string' ? vars.status : 'active';
    const now = formatUtc(new Date());
    const invoiceId = await insertInvoice(this.ctx.db, {
      company_id: this.ctx.companyId,
      client_id: client.id,
      number_value: null,
      number: null,
      status,
      currency,
      ...storedTotals(totals),
      paid: '0.0000',
      date_billed: formatUtc(rules.time(vars.date_billed)!),
      date_due: formatUtc(rules.time(vars.date_due)!),
      date_closed: closedDate(status, totals.total, ZERO, null, now),
      date_autodebit: optionalText(vars.date_autodebit) === null ? null : formatUtc(rules.time(vars.date_autodebit)!),
      note_public: optionalText(vars.note_public),
      note_private: optionalText(vars.note_private),
      date_added: now,
    });
    await writeLinesAndTaxes(this.ctx.db, invoiceId, lines, totals, true);
    await writeDelivery(this.ctx.db, invoiceId, deliveryList(vars.delivery), true);
    // Numbered last: concurrent adds of a company queue on the counter's row lock from here to
    // their commit, so the less work after it, the more invoices per second a company can add.
    if (status !== 'draft') {
      const number = await this.nextNumber();
      await setInvoiceNumber(this.ctx.db, invoiceId, number.value, number.text);
    }
    if (recurs(vars)) await applyRecurringPart(this.ctx, this.recurring, invoiceId, vars);
    await queueEmailDelivery(this.ctx.db, this.ctx.companyId, invoiceId);
    await emit(this.ctx, 'Invoices.add', await this.queries.get(invoiceId));
    return invoiceId;
  }

  @callable({
    description:
      'Change an invoice: any field add takes. vars[lines][i][id] changes that line (a blank description and amount remove it), a line without id is added, lines not named stay. vars[status]: a draft becomes active or proforma (and is numbered); void voids. Returns the invoice id.',
    verb: 'PUT',
    params: [int('invoice_id'), object('vars')],
    vars: INVOICE_EDIT,
    returns: count({ description: 'The invoice id.' }),
  })
  async edit(invoiceId: number, vars: Record<string, unknown>) {
    await checkRecurringPart(this.ctx, vars);
    const wasDraft = (await this.queries.summary(invoiceId))?.status === 'draft';
    const editor = new InvoiceEditor(this.ctx, () => this.nextNumber());
    await editor.edit(invoiceId, vars);
    await editRecurringPart(this.ctx, this.recurring, invoiceId, wasDraft, vars);
    // vars[delivery] without email: the invoice's message still waiting is not sent.
    if (vars.delivery !== undefined) await cancelInvoiceEmail(this.ctx.db, this.ctx.companyId, invoiceId);
    await queueEmailDelivery(this.ctx.db, this.ctx.companyId, invoiceId);
    await emit(this.ctx, 'Invoices.edit', await this.queries.get(invoiceId));
    return invoiceId;
  }

  @callable({
    description:
      'Merge open, unpaid invoices of one client and currency: their lines move onto invoice_id (or, when null, a new invoice like the first), re-totalled; the others are voided (drafts deleted). Returns the merged invoice id.',
    verb: 'POST',
    params: [list('invoice_ids'), int('invoice_id', { default: null })],
    returns: count({ description: 'The merged invoice id.' }),
  })
  async merge(invoiceIds: unknown[], targetId: number | null) {
    const ids = invoiceIds.map((v) => wholeNumber(v));
    if (ids.some((id) => id === null)) throw TallyError.invalid({ invoice_ids: { format: 'Give invoice ids, as invoice_ids[]=1&invoice_ids[]=2.' } });
    return mergeInvoices(this.ctx, ids as number[], targetId, () => this.nextNumber());
  }

  @callable({
    description: 'Move the line_items (line ids) of an open, unpaid invoice onto a new invoice like it; both are re-totalled. Returns the new invoice id.',
    verb: 'POST',
    params: [int('invoice_id'), list('line_items', { default: [] })],
    returns: count({ description: 'The new invoice id.' }),
  })
  async split(invoiceId: number, lineItems: unknown[]) {
    const ids = lineItems.map((v) => wholeNumber(v));
    if (ids.some((id) => id === null)) throw TallyError.invalid({ line_items: { format: 'Give line ids, as line_items[]=1.' } });
    return splitInvoice(this.ctx, invoiceId, ids as number[], () => this.nextNumber());
  }

  @callable({
    description: 'Set a meta value of an invoice (any value: text, or a set sent as value[name]=...); kept as given.',
    verb: 'POST',
    params: [int('invoice_id'), string('key'), any('value')],
    returns: nothing(),
  })
  async setMeta(invoiceId: number, key: string, value: unknown) {
    if (!(await this.queries.summary(invoiceId))) throw invalidInvoice();
    await assertValid({ key }, settingKeyRules);
    const json = JSON.stringify(value ?? null);
    await this.ctx.db
      .insertInto('invoice_meta')
      .values({ invoice_id: invoiceId, key, value: json })
      .onConflict((oc) => oc.columns(['invoice_id', 'key']).doUpdateSet({ value: json }))
      .execute();
    return null;
  }

  @callable({ description: 'Remove one meta value of an invoice, or all of them when key is null.', verb: 'DELETE', params: [int('invoice_id'), string('key', { default: null })], returns: nothing() })
  async unsetMeta(invoiceId: number, key: string | null) {
    if (!(await this.queries.summary(invoiceId))) throw invalidInvoice();
    let query = this.ctx.db.deleteFrom('invoice_meta').where('invoice_id', '=', invoiceId);
    if (key !== null) query = query.where('key', '=', key);
    await query.execute();
    return null;
  }

  @callable({
    description: 'Close an invoice when nothing is left due on it, else reopen it (clear date_closed). Answers whether it is closed.',
    verb: 'POST',
    params: [int('invoice_id')],
    returns: boolShape(),
  })
  async setClosed(invoiceId: number) {
    const invoice = await lockInvoice(this.ctx.db, this.ctx.companyId, invoiceId);
    const closed = closedDate(invoice.status, invoice.total, invoice.paid, invoice.date_closed, formatUtc(new Date()));
    if (closed !== invoice.date_closed) await this.ctx.db.updateTable('invoices').set({ date_closed: closed }).where('id', '=', invoiceId).execute();
    if (closed !== null && invoice.date_closed === null) await emitInvoiceClosed(this.ctx.db, { ...invoice, date_closed: closed });
    return closed !== null;
  }

  @callable({
    description: "Void an invoice (as invoices/edit with vars[status]=void): payments applied to it go back to the client's credit, and it keeps its number. Returns the invoice.",
    verb: 'POST',
    params: [int('invoice_id')],
    returns: INVOICE,
  })
  async void(invoiceId: number) {
    await voidInvoice(this.ctx.db, this.ctx.companyId, await lockInvoice(this.ctx.db, this.ctx.companyId, invoiceId));
    return this.queries.get(invoiceId);
  }

  @callable({ description: 'Delete a draft invoice (other invoices are voided, never deleted, so numbers have no gaps).', verb: 'DELETE', params: [int('invoice_id')], returns: nothing() })
  async deleteDraft(invoiceId: number) {
    const invoice = await lockInvoice(this.ctx.db, this.ctx.companyId, invoiceId);
    if (invoice.status !== 'draft') throw TallyError.invalid({ invoice_id: { draft: 'Only draft invoices can be deleted; void the invoice instead.' } });
    for (const table of ['invoice_lines', 'invoice_taxes', 'invoice_delivery', 'invoice_meta'] as const) {
      await this.ctx.db.deleteFrom(table).where('invoice_id', '=', invoiceId).execute();
    }
    await this.ctx.db.deleteFrom('invoices').where('id', '=', invoiceId).execute();
    return null;
  }

  @callable({
    description:
      "Invoice services of a client in one currency, due on due_date: new services from their start to their first renew date (prorated to the package's pro rata day when allow_pro_rata) with setup fees, or with services_renew their next term_cycles terms (their renew dates move on). Coupons are lines of their own. A service period is invoiced once. Returns the invoice id.",
    verb: 'POST',
    params: [
      int('client_id'),
      any('service_ids'),
      string('currency'),
      string('due_date'),
      bool('allow_pro_rata', { default: true }),
      bool('services_renew', { default: false }),
      any('service_transfers', { default: [] }),
      int('term_cycles', { default: 1 }),
    ],
    returns: count({ description: 'The new invoice id.' }),
  })
  async createFromServices(clientId: number, serviceIds: unknown, currency: string, dueDate: string, allowProRata: boolean, servicesRenew: boolean, _serviceTransfers: unknown, termCycles: number) {
    return createFromServices(this.ctx, this.calls, { clientId, serviceIds, currency, dueDate, allowProRata, servicesRenew, termCycles });
  }

  @callable({
    description:
      'Invoice the next term_cycles terms of one service, due on its renew date (its renew date moves on), at its own pricing: pricing_id, when given, must be it (change the pricing with services/edit). A period already invoiced answers service_ids.invoiced. Returns the invoice id.',
    verb: 'POST',
    params: [int('service_id'), int('term_cycles', { default: 1 }), int('pricing_id', { default: null })],
    returns: count({ description: 'The new invoice id.' }),
  })
  createRenewalFromService(serviceId: number, termCycles: number, pricingId: number | null) {
    return createRenewalFromService(this.ctx, this.calls, serviceId, termCycles, pricingId);
  }

  @callable({
    description:
      'Add new services of the same client and currency to an open invoice: each from its start to its first renew date (prorated to the pro rata day) with its setup fee and coupon, as createFromServices bills them; the invoice is re-totalled. Returns the invoice id.',
    verb: 'POST',
    params: [int('invoice_id'), any('service_ids')],
    returns: count({ description: 'The invoice id.' }),
  })
  appendServices(invoiceId: number, serviceIds: unknown) {
    return appendServices(this.ctx, this.calls, invoiceId, serviceIds);
  }

  @callable({
    description: 'The invoices (without line items) that bill a period of a service, by status (as getList; all by default), oldest first.',
    verb: 'GET',
    params: [int('service_id'), string('status', { default: 'all' })],
    returns: INVOICE_SUMMARIES,
  })
  getAllWithService(serviceId: number, status: string) {
    return invoicesWithService(this.ctx, serviceId, status);
  }

  @callable({ description: "Tally's earlier name of deleteDraft: deletes a draft invoice.", verb: 'DELETE', params: [int('invoice_id')], returns: nothing() })
  async delete(invoiceId: number) {
    return this.deleteDraft(invoiceId);
  }

  private async nextNumber(): Promise<{ value: number; text: string }> {
    // Read through the call's transaction: the store's own connection would wait on it (SQLite has one).
    const { format, start } = await numberingSettings(this.ctx.db, this.ctx.companyId);
    const value = await allocateInvoiceNumber(this.ctx.db, this.ctx.companyId, Number(start) || 1);
    return { value, text: formatInvoiceNumber(format, value) };
  }
}
