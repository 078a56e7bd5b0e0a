import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { assertValid } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { any, bool, int, object, string } from '../kernel/parameter';
import { ModelCalls } from '../kernel/model-calls';
import { createFromServices } from './invoices/create-from-services';
import { TallyError } from '../kernel/tally-error';
import { ZERO } from '../kernel/money';
import { formatUtc } from '../kernel/timestamps';
import { SETTINGS } from '../settings-catalogue';
import { SettingsStore } from '../settings-store';
import { pageOffset } from './billing/values';
import { InvoiceEditor } from './invoices/invoice-editor';
import { deliveryList, INVOICE_STATUSES, InvoiceRules, MESSAGES } from './invoices/invoice-rules';
import { insertLinesAndTaxes, invoiceQuery, presentSummary, readInvoice, writeDelivery } from './invoices/invoice-store';
import { readLines } from './invoices/lines';
import { allocateInvoiceNumber, formatInvoiceNumber } from './invoices/numbering';
import { closedDate } from './invoices/settlement';
import { storedTotals } from './invoices/totals';
import { lockInvoice } from './invoices/invoice-lock';
import { totalFor } from './invoices/totalling';
import { unapplyAll } from './transactions/applying';
import { int as count, listOf, nothing, orNull } from '../kernel/shape';
import { INVOICE, INVOICE_ADD, INVOICE_EDIT, INVOICE_SUMMARY } from './invoices.fields';

const PAGE_SIZE = 25;
/** Filters of getList besides the statuses: open (active or proforma, something due) and closed. */
const FILTERS = ['open', 'closed'] as const;

/**
 * Invoices of the caller's company. Numbers are given when an invoice stops being a draft, from the
 * company's sequence (invoice_format, invoice_start settings); money is exact (decimal.js) and
 * answered as decimal strings with four places, totals rounded to the currency's precision.
 */
@model('invoices')
export class Invoices {
  constructor(
    private readonly ctx: CallContext,
    private readonly settings: SettingsStore,
    private readonly calls: ModelCalls,
  ) {}

  @callable({
    description:
      'Create an invoice from vars[client_id], vars[date_billed], vars[date_due], vars[currency], vars[lines][i][description], vars[lines][i][amount], optional vars[lines][i][qty] (default 1) and vars[lines][i][tax] (true: the client\'s taxes apply), vars[delivery][] (email, paper, interfax, postalmethods) and vars[status] (active, draft, proforma, void; default active). Returns the invoice id.',
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: INVOICE_ADD,
    returns: count({ description: 'The new invoice id.' }),
  })
  async add(vars: Record<string, unknown>) {
    const rules = new InvoiceRules(this.ctx.db, this.ctx.companyId, this.ctx.timezone);
    await assertValid(vars, rules.ruleSet(vars, false));
    const client = rules.client!;
    const currency = String(vars.currency);
    const lines = readLines(vars.lines);
    const totals = await totalFor(this.ctx.db, this.ctx.companyId, client, currency, lines);
    const status = typeof vars.status === 'string' ? vars.status : 'active';
    const now = formatUtc(new Date());
    const row = await this.ctx.db
      .insertInto('invoices')
      .values({
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
        date_added: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertLinesAndTaxes(this.ctx.db, row.id, lines, totals);
    await writeDelivery(this.ctx.db, row.id, deliveryList(vars.delivery), true);
    // Numbered last: concurrent adds of a company queue on the counter's row lock from here to
    // their commit, so the less work after it, the more invoices per second a company can add.
    if (status !== 'draft') {
      const number = await this.nextNumber();
      await this.ctx.db.updateTable('invoices').set({ number_value: number.value, number: number.text }).where('id', '=', row.id).execute();
    }
    return row.id;
  }

  @callable({
    description:
      'Change an invoice: any field invoices/add takes. vars[lines] replaces every line. A draft becomes active or proforma (and is numbered) through vars[status]; voiding is invoices/void. Returns the invoice.',
    verb: 'PUT',
    params: [int('invoice_id'), object('vars')],
    vars: INVOICE_EDIT,
    returns: INVOICE,
  })
  async edit(invoiceId: number, vars: Record<string, unknown>) {
    const editor = new InvoiceEditor(this.ctx, () => this.nextNumber());
    await editor.edit(invoiceId, vars);
    return this.get(invoiceId);
  }

  @callable({ description: 'Fetch an invoice with its lines, taxes, delivery methods and subtotal, tax, total, paid and due; null when the company has no such invoice.', verb: 'GET', params: [int('invoice_id')], returns: orNull(INVOICE) })
  async get(invoiceId: number) {
    return readInvoice(this.ctx.db, this.ctx.companyId, invoiceId);
  }

  @callable({
    description: 'One page (25) of invoices, newest billed first, without lines: optionally of one client and one status (active, draft, proforma, void, or open / closed).',
    verb: 'GET',
    params: [int('client_id', { default: null }), string('status', { default: null }), int('page', { default: 1 })],
    returns: listOf(INVOICE_SUMMARY),
  })
  async getList(clientId: number | null, status: string | null, page: number) {
    const rows = await this.filtered(clientId, status).orderBy('date_billed', 'desc').orderBy('id', 'desc').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
    return rows.map(presentSummary);
  }

  @callable({ description: 'Count invoices, optionally of one client and one status (as getList).', verb: 'GET', params: [int('client_id', { default: null }), string('status', { default: null })], returns: count() })
  async getListCount(clientId: number | null, status: string | null) {
    const row = await this.filtered(clientId, status)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  @callable({ description: 'Void an invoice: payments applied to it go back to the client\'s credit, and it keeps its number. Returns the invoice.', verb: 'POST', params: [int('invoice_id')], returns: INVOICE })
  async void(invoiceId: number) {
    const invoice = await lockInvoice(this.ctx.db, this.ctx.companyId, invoiceId);
    if (invoice.status !== 'void') {
      await unapplyAll(this.ctx.db, invoiceId);
      await this.ctx.db.updateTable('invoices').set({ status: 'void', paid: '0.0000', date_closed: formatUtc(new Date()) }).where('id', '=', invoiceId).execute();
    }
    return this.get(invoiceId);
  }

  @callable({ description: 'Delete a draft invoice (other invoices are voided, never deleted, so numbers have no gaps).', verb: 'DELETE', params: [int('invoice_id')], returns: nothing() })
  async delete(invoiceId: number) {
    const invoice = await lockInvoice(this.ctx.db, this.ctx.companyId, invoiceId);
    if (invoice.status !== 'draft') throw TallyError.invalid({ invoice_id: { draft: 'Only draft invoices can be deleted; void the invoice instead.' } });
    for (const table of ['invoice_lines', 'invoice_taxes', 'invoice_delivery'] as const) {
      await this.ctx.db.deleteFrom(table).where('invoice_id', '=', invoiceId).execute();
    }
    await this.ctx.db.deleteFrom('invoices').where('id', '=', invoiceId).execute();
    return null;
  }

  @callable({
    description:
      'Invoice services of a client in one currency, due on due_date: new services from their start to their first renew date (prorated to the package\'s pro rata day when allow_pro_rata) with setup fees, or with services_renew their next term_cycles terms (their renew dates move on). Coupons are lines of their own. A service period is invoiced once. Returns the invoice id.',
    verb: 'POST',
    params: [int('client_id'), any('service_ids'), string('currency'), string('due_date'), bool('allow_pro_rata', { default: true }), bool('services_renew', { default: false }), any('service_transfers', { default: [] }), int('term_cycles', { default: 1 })],
    returns: count({ description: 'The new invoice id.' }),
  })
  createFromServices(clientId: number, serviceIds: unknown, currency: string, dueDate: string, allowProRata: boolean, servicesRenew: boolean, _serviceTransfers: unknown, termCycles: number) {
    return createFromServices(this.ctx, this.calls, { clientId, serviceIds, currency, dueDate, allowProRata, servicesRenew, termCycles });
  }

  private filtered(clientId: number | null, status: string | null) {
    if (status !== null && ![...INVOICE_STATUSES, ...FILTERS].includes(status as never)) throw TallyError.invalid({ status: { format: MESSAGES.status } });
    let query = invoiceQuery(this.ctx.db, this.ctx.companyId);
    if (clientId !== null) query = query.where('client_id', '=', clientId);
    if (status === 'open') query = query.where('status', 'in', ['active', 'proforma']).where('date_closed', 'is', null);
    else if (status === 'closed') query = query.where('status', 'in', ['active', 'proforma']).where('date_closed', 'is not', null);
    else if (status !== null) query = query.where('status', '=', status);
    return query;
  }

  private async nextNumber(): Promise<{ value: number; text: string }> {
    // Read through the call's transaction: the store's own connection would wait on it (SQLite has one).
    const settings = await this.settings.read(this.ctx.companyId, this.ctx.db);
    const format = settings.get('invoice_format') ?? SETTINGS.invoice_format.default;
    const start = settings.get('invoice_start') ?? SETTINGS.invoice_start.default;
    const value = await allocateInvoiceNumber(this.ctx.db, this.ctx.companyId, Number(start) || 1);
    return { value, text: formatInvoiceNumber(format, value) };
  }
}
