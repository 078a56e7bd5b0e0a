import { timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { stored, sum, toStored } from '../../kernel/money';
import { facet } from '../../kernel/model';
import { bool, int, object, string } from '../../kernel/parameter';
import { payLinkExpiry, payToken, payTokenExpiry } from '../../billing/pay-link';
import { applicableTaxes } from '../../billing/applicable-taxes';
import { ordered, readOrder } from '../../billing/ordering';
import { pageOffset } from '../../billing/values';
import { findClient, invalidClient } from '../../billing/client-store';
import { filteredInvoices, INVOICE_ORDER, searchInvoices } from './invoice-filters';
import { DELIVERY_METHODS } from '../../billing/invoice-rules';
import { invalidInvoice } from '../../billing/invoice-lock';
import { invoiceQuery, presentSummary, readInvoice, readLineItems } from './invoice-store';
import { any as anyShape, bool as boolShape, int as count, listOf, mapOf, money, orFalse, string as text, timestamp } from '../../kernel/shape';
import { INVOICE, INVOICE_SUMMARIES, LINE_ITEM, TAX_RULES } from '../invoices.fields';
import { PAGE_SIZE } from '../../kernel/paging';

const STATUS_NAMES = { active: 'Active', draft: 'Draft', proforma: 'Proforma', void: 'Void' };
const STATUS_PARAM = { description: 'active, draft, proforma, void, or a filter: open (default), closed, past_due, pending, to_autodebit, pending_autodebit, to_print, printed, to_deliver, all' };

/**
 * The reading half of the reference's Invoices model: one invoice, lists by status, search, money
 * of one invoice or one client, and the pay-without-login hash. A facet of the invoices model
 * (invoices.ts lists it, and reads invoices through it), so these are `invoices/...` methods.
 */
@facet('invoices')
export class InvoiceQueries {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description: 'An invoice with its line_items, taxes and delivery methods; false when the company has no such invoice. use_cache is accepted and has no effect (Tally keeps no invoice cache).',
    verb: 'GET',
    params: [int('invoice_id'), bool('use_cache', { default: false })],
    returns: orFalse(INVOICE),
  })
  async get(invoiceId: number, _useCache?: boolean) {
    return readInvoice(this.ctx.db, this.ctx.companyId, invoiceId);
  }

  @callable({
    description: 'The line items of an invoice; false when there is no such invoice.',
    verb: 'GET',
    params: [int('invoice_id'), bool('use_cache', { default: false })],
    returns: orFalse(listOf(LINE_ITEM)),
  })
  async getLineItems(invoiceId: number, _useCache: boolean) {
    if (!(await this.summary(invoiceId))) return false;
    return readLineItems(this.ctx.db, invoiceId);
  }

  @callable({
    description:
      'One page (25) of invoices (without line items), of one client or all, by status; order_by[field]=ASC|DESC over date_due, date_billed, date_closed, id_code, id, total, status, currency, client_id; filters[currency], filters[invoice_id].',
    verb: 'GET',
    params: [
      int('client_id', { default: null }),
      string('status', { default: 'open', ...STATUS_PARAM }),
      int('page', { default: 1 }),
      object('order_by', { default: { date_due: 'ASC' } }),
      object('filters', { default: [] }),
    ],
    returns: INVOICE_SUMMARIES,
  })
  async getList(clientId: number | null, status: string, page: number, orderBy: unknown, filters: unknown) {
    const query = ordered(filteredInvoices(this.ctx.db, this.ctx.companyId, clientId, status, filters), readOrder(orderBy, INVOICE_ORDER), 'id');
    return (await query.limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute()).map(presentSummary);
  }

  @callable({
    description: 'How many invoices getList lists for the same client, status and filters.',
    verb: 'GET',
    params: [int('client_id', { default: null }), string('status', { default: 'open', ...STATUS_PARAM }), object('filters', { default: [] })],
    returns: count(),
  })
  async getListCount(clientId: number | null, status: string, filters: unknown) {
    return this.count(filteredInvoices(this.ctx.db, this.ctx.companyId, clientId, status, filters));
  }

  @callable({
    description: "The same count as getListCount, under the reference's other name.",
    verb: 'GET',
    params: [int('client_id', { default: null }), string('status', { default: 'open', ...STATUS_PARAM }), object('filters', { default: [] })],
    returns: count(),
  })
  async getStatusCount(clientId: number | null, status: string, filters: unknown) {
    return this.getListCount(clientId, status, filters);
  }

  @callable({
    description: 'Every invoice (without line items) of one client or all, by status, optionally in one currency.',
    verb: 'GET',
    params: [int('client_id', { default: null }), string('status', { default: 'open', ...STATUS_PARAM }), object('order_by', { default: { date_due: 'ASC' } }), string('currency', { default: null })],
    returns: INVOICE_SUMMARIES,
  })
  async getAll(clientId: number | null, status: string, orderBy: unknown, currency: string | null) {
    const filters = currency === null ? {} : { currency };
    const query = ordered(filteredInvoices(this.ctx.db, this.ctx.companyId, clientId, status, filters), readOrder(orderBy, INVOICE_ORDER), 'id');
    return (await query.execute()).map(presentSummary);
  }

  @callable({
    description: 'One page (25) of invoices whose number or a line description contains query.',
    verb: 'GET',
    params: [string('query'), int('page', { default: 1 })],
    returns: INVOICE_SUMMARIES,
  })
  async search(query: string, page: number) {
    const rows = await searchInvoices(this.ctx.db, this.ctx.companyId, query).orderBy('id', 'desc').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
    return rows.map(presentSummary);
  }

  @callable({ description: 'How many invoices search finds for query.', verb: 'GET', params: [string('query')], returns: count() })
  async getSearchCount(query: string) {
    return this.count(searchInvoices(this.ctx.db, this.ctx.companyId, query));
  }

  @callable({
    description: 'What a client owes in a currency on its invoices of a status (default open), as a decimal string.',
    verb: 'GET',
    params: [int('client_id'), string('currency'), string('status', { default: 'open', ...STATUS_PARAM })],
    returns: money(),
  })
  async amountDue(clientId: number, currency: string, status: string) {
    if (!(await findClient(this.ctx.db, this.ctx.companyId, clientId))) throw invalidClient();
    const rows = await filteredInvoices(this.ctx.db, this.ctx.companyId, clientId, status, { currency }).where('status', '!=', 'void').execute();
    return toStored(sum(rows.map((r) => stored(r.total).minus(stored(r.paid)))));
  }

  @callable({ description: 'What has been paid on an invoice (decimal string); false when there is no such invoice.', verb: 'GET', params: [int('invoice_id')], returns: orFalse(money()) })
  async getPaid(invoiceId: number) {
    return (await this.summary(invoiceId))?.paid ?? false;
  }

  @callable({ description: "An invoice's subtotal, before tax (decimal string); false when there is no such invoice.", verb: 'GET', params: [int('invoice_id')], returns: orFalse(money()) })
  async getSubtotal(invoiceId: number) {
    return (await this.summary(invoiceId))?.subtotal ?? false;
  }

  @callable({ description: "An invoice's total, with tax (decimal string); false when there is no such invoice.", verb: 'GET', params: [int('invoice_id')], returns: orFalse(money()) })
  async getTotal(invoiceId: number) {
    return (await this.summary(invoiceId))?.total ?? false;
  }

  @callable({
    description: 'When the invoice is to be autodebited (UTC); false when it has no autodebit date or does not exist.',
    verb: 'GET',
    params: [int('invoice_id')],
    returns: orFalse(timestamp()),
  })
  async getAutodebitDate(invoiceId: number) {
    return (await this.summary(invoiceId))?.date_autodebit ?? false;
  }

  @callable({
    description:
      "A token that lets a client pay this invoice without logging in until it expires (the company's pay_link_days setting, 30 days by default): an HMAC of the company, client, invoice and expiry under a key derived from the system key, followed by the expiry. 400 invoice_id.exists unless the invoice is the client's, of the caller's company.",
    verb: 'GET',
    params: [int('client_id'), int('invoice_id')],
    returns: text(),
  })
  async createPayHash(clientId: number, invoiceId: number) {
    // The system key is the installation's, so a token is good in every company: minted for any
    // ids, one company could make the token that opens another company's invoice (or one of a
    // later id) on that company's pay page. For the same reason the token is not systemHash's
    // HMAC, which any company can have computed for any text.
    if (!(await this.payable(clientId, invoiceId))) throw invalidInvoice();
    return this.payHash(clientId, invoiceId, await payLinkExpiry(this.ctx.db, this.ctx.companyId));
  }

  @callable({
    description: "Whether hash is a pay token createPayHash gave for this client and invoice (of the caller's company) that has not expired.",
    verb: 'GET',
    params: [int('client_id'), int('invoice_id'), string('hash')],
    returns: boolShape(),
  })
  async verifyPayHash(clientId: number, invoiceId: number, hash: string) {
    const expires = payTokenExpiry(hash);
    if (expires === null || expires * 1000 <= Date.now()) return false;
    const expected = Buffer.from(this.payHash(clientId, invoiceId, expires));
    const given = Buffer.from(hash);
    return given.length === expected.length && timingSafeEqual(given, expected) && (await this.payable(clientId, invoiceId));
  }

  private payHash(clientId: number, invoiceId: number, expires: number): string {
    return payToken(this.ctx.systemKey, this.ctx.companyId, clientId, invoiceId, expires);
  }

  /** Whether the invoice is one of the caller's company's, of that client. */
  private async payable(clientId: number, invoiceId: number): Promise<boolean> {
    const invoice = await this.summary(invoiceId);
    return !!invoice && invoice.client_id === clientId;
  }

  @callable({
    description: "The tax rules a client's taxable lines are charged (one per level, the closest to its address): {id, level, name, amount, type}.",
    verb: 'GET',
    params: [int('client_id')],
    returns: TAX_RULES,
  })
  async getTaxRules(clientId: number) {
    const client = await findClient(this.ctx.db, this.ctx.companyId, clientId);
    if (!client) throw invalidClient();
    const rules = await applicableTaxes(this.ctx.db, this.ctx.companyId, client, this.ctx.systemKey);
    return rules.map((t) => ({ id: t.id, level: t.level, name: t.name, amount: toStored(t.rate), type: t.type }));
  }

  @callable({
    description: "An invoice's meta values ({invoice_id, key, value}): all of them, or the one named by key (false when it is not set). False when there is no such invoice.",
    verb: 'GET',
    params: [int('invoice_id'), string('key', { default: null })],
    returns: orFalse(anyShape()),
  })
  async getMeta(invoiceId: number, key: string | null) {
    if (!(await this.summary(invoiceId))) return false;
    let query = this.ctx.db.selectFrom('invoice_meta').select(['invoice_id', 'key', 'value']).where('invoice_id', '=', invoiceId);
    if (key !== null) query = query.where('key', '=', key);
    const rows = (await query.orderBy('key').execute()).map((r) => ({ ...r, value: JSON.parse(r.value) as unknown }));
    return key === null ? rows : (rows[0] ?? false);
  }

  @callable({ description: 'The periods of recurring invoices and their names.', verb: 'GET', returns: mapOf(text()) })
  async getPricingPeriods() {
    return { day: 'Day', week: 'Week', month: 'Month', year: 'Year' };
  }

  @callable({ description: 'The stored invoice statuses and their names.', verb: 'GET', returns: mapOf(text()) })
  async getStatuses() {
    return STATUS_NAMES;
  }

  @callable({ description: 'The delivery methods an invoice may be marked for.', verb: 'GET', returns: mapOf(text()) })
  async getDeliveryMethods() {
    return Object.fromEntries(DELIVERY_METHODS.map((m) => [m, m === 'postalmethods' ? 'PostalMethods' : m[0].toUpperCase() + m.slice(1)]));
  }

  @callable({
    description: 'The currency codes a client has been invoiced in (status as getList; default all).',
    verb: 'GET',
    params: [int('client_id'), string('status', { default: 'all', ...STATUS_PARAM })],
    returns: listOf(text()),
  })
  async invoicedCurrencies(clientId: number, status: string) {
    const rows = await filteredInvoices(this.ctx.db, this.ctx.companyId, clientId, status).clearSelect().select('currency').distinct().orderBy('currency').execute();
    return rows.map((r) => r.currency);
  }

  /** The invoice without its lines, of the caller's company; undefined when there is none. Not callable. */
  async summary(invoiceId: number) {
    const row = await invoiceQuery(this.ctx.db, this.ctx.companyId).where('id', '=', invoiceId).executeTakeFirst();
    return row && presentSummary(row);
  }

  private async count(query: ReturnType<typeof invoiceQuery>) {
    const row = await query
      .clearSelect()
      .select(sql<number>`count(*)`.as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }
}
