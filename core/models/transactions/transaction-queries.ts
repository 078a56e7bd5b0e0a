import { containsPattern } from '../../db/contains-pattern';
import { sql } from 'kysely';
import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { stored, toStored } from '../../kernel/money';
import { facet } from '../../kernel/model';
import { int, object, string } from '../../kernel/parameter';
import { TallyError } from '../../kernel/tally-error';
import { CustomTypes, DEBIT_TYPES } from '../../billing/custom-types';
import { ordered, readFilters, readOrder } from '../../billing/ordering';
import { pageOffset } from '../../billing/values';
import { findClient, invalidClient } from '../../billing/client-store';
import { TRANSACTION_STATUSES } from './payment-rules';
import { clientCredit, presentTransaction, readTransaction, SETTLED_STATUSES, transactionQuery, unapplied } from '../../billing/transaction-store';
import { int as count, listOf, mapOf, money, orFalse, string as text } from '../../kernel/shape';
import { APPLIED, CREDITS, TRANSACTION, TRANSACTION_SUMMARIES, TYPE } from '../transactions.fields';
import { PAGE_SIZE } from '../../kernel/paging';
import { parseTimestamp } from '../../kernel/timestamps';

/** A real day written YYYY-MM-DD (2026-02-30 is not one). */
const isCalendarDay = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text) && parseTimestamp(`${text} 00:00:00 UTC`, 'UTC') !== null;

const ORDER: Record<string, string> = { date_added: 'date_added', amount: 'amount', currency: 'currency', status: 'status', type: 'type', id: 'id', client_id: 'client_id' };
const STATUS_NAMES = { approved: 'Approved', declined: 'Declined', void: 'Void', error: 'Error', pending: 'Pending', refunded: 'Refunded', returned: 'Returned' };
const STATUS_PARAM = { description: `approved (default), ${TRANSACTION_STATUSES.slice(1).join(', ')}, refunded, or all` };

/**
 * The reading half of the reference's Transactions model: one transaction, lists by status,
 * search, what was applied where, and the client's loose credit. A facet of the transactions
 * model (transactions.ts lists it, and reads through it), so these are `transactions/...` methods.
 */
@facet('transactions')
export class TransactionQueries {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description: 'A transaction with what it paid on which invoice (applied), its refunds and its credit (what is left of it); false when there is none.',
    verb: 'GET',
    params: [int('transaction_id')],
    returns: orFalse(TRANSACTION),
  })
  async get(transactionId: number) {
    return readTransaction(this.ctx.db, this.ctx.companyId, transactionId);
  }

  @callable({
    description: 'The transaction a gateway knows as transaction_id (optionally of one client and one gateway_id); false when there is none.',
    verb: 'GET',
    params: [string('transaction_id'), int('client_id', { default: null }), int('gateway_id', { default: null })],
    returns: orFalse(TRANSACTION),
  })
  async getByTransactionId(reference: string, clientId: number | null, gatewayId: number | null) {
    let query = transactionQuery(this.ctx.db, this.ctx.companyId).where('reference', '=', reference);
    if (clientId !== null) query = query.where('client_id', '=', clientId);
    if (gatewayId !== null) query = query.where('gateway_id', '=', gatewayId);
    const row = await query.orderBy('id').executeTakeFirst();
    return row ? this.get(row.id) : false;
  }

  @callable({
    description:
      'One page (25) of transactions, of one client or all, by status; order_by[field]=ASC|DESC over date_added, amount, currency, status, type, id, client_id; filters[currency], filters[type], filters[date_from] and filters[date_to] (YYYY-MM-DD, UTC days, both included).',
    verb: 'GET',
    params: [
      int('client_id', { default: null }),
      string('status', { default: 'approved', ...STATUS_PARAM }),
      int('page', { default: 1 }),
      object('order_by', { default: { date_added: 'DESC' } }),
      object('filters', { default: [] }),
    ],
    returns: TRANSACTION_SUMMARIES,
  })
  async getList(clientId: number | null, status: string, page: number, orderBy: unknown, filters: unknown) {
    const query = ordered(this.listed(clientId, status, filters), readOrder(orderBy, ORDER), 'id');
    return (await query.limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute()).map(presentTransaction);
  }

  @callable({
    description: 'How many transactions getList lists for the same client, status and filters.',
    verb: 'GET',
    params: [int('client_id', { default: null }), string('status', { default: 'approved', ...STATUS_PARAM }), object('filters', { default: [] })],
    returns: count(),
  })
  async getListCount(clientId: number | null, status: string, filters: unknown) {
    return this.count(this.listed(clientId, status, filters));
  }

  @callable({
    description: "The same count as getListCount, under the reference's other name.",
    verb: 'GET',
    params: [int('client_id', { default: null }), string('status', { default: 'approved', ...STATUS_PARAM }), object('filters', { default: [] })],
    returns: count(),
  })
  async getStatusCount(clientId: number | null, status: string, filters: unknown) {
    return this.getListCount(clientId, status, filters);
  }

  @callable({
    description: 'One page (25) of transactions of every status, newest first, optionally of one client.',
    verb: 'GET',
    params: [int('client_id', { default: null }), int('page', { default: 1 })],
    returns: TRANSACTION_SUMMARIES,
  })
  async getSimpleList(clientId: number | null, page: number) {
    return this.getList(clientId, 'all', page, { date_added: 'DESC' }, {});
  }

  @callable({
    description: 'One page (25) of transactions whose gateway transaction id, reference_id or message contains query.',
    verb: 'GET',
    params: [string('query'), int('page', { default: 1 })],
    returns: TRANSACTION_SUMMARIES,
  })
  async search(query: string, page: number) {
    const rows = await this.matching(query).orderBy('id', 'desc').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
    return rows.map(presentTransaction);
  }

  @callable({ description: 'How many transactions search finds for query.', verb: 'GET', params: [string('query')], returns: count() })
  async getSearchCount(query: string) {
    return this.count(this.matching(query));
  }

  @callable({
    description: 'What was applied where: rows {transaction_id, invoice_id, amount, date, currency, invoice_id_code}, of one transaction, one invoice, or both.',
    verb: 'GET',
    params: [int('transaction_id', { default: null }), int('invoice_id', { default: null })],
    returns: APPLIED,
  })
  async getApplied(transactionId: number | null, invoiceId: number | null) {
    let query = this.ctx.db
      .selectFrom('transaction_applied')
      .innerJoin('transactions', 'transactions.id', 'transaction_applied.transaction_id')
      .innerJoin('invoices', 'invoices.id', 'transaction_applied.invoice_id')
      .select([
        'transaction_applied.transaction_id',
        'transaction_applied.invoice_id',
        'transaction_applied.amount',
        'transaction_applied.date_added as date',
        'transactions.currency',
        'invoices.number as invoice_id_code',
      ])
      .where('transactions.company_id', '=', this.ctx.companyId);
    if (transactionId !== null) query = query.where('transaction_applied.transaction_id', '=', transactionId);
    if (invoiceId !== null) query = query.where('transaction_applied.invoice_id', '=', invoiceId);
    const rows = await query.orderBy('transaction_applied.date_added').orderBy('transaction_applied.invoice_id').orderBy('transaction_applied.transaction_id').execute();
    return rows.map((r) => ({ ...r, amount: toStored(stored(r.amount)) }));
  }

  @callable({
    description: "A client's transactions that still hold credit, oldest first: rows {transaction_id, currency, credit}; optionally in one currency.",
    verb: 'GET',
    params: [int('client_id'), string('currency', { default: null })],
    returns: CREDITS,
  })
  async getCredits(clientId: number, currency: string | null) {
    if (!(await findClient(this.ctx.db, this.ctx.companyId, clientId))) throw invalidClient();
    let query = transactionQuery(this.ctx.db, this.ctx.companyId).where('client_id', '=', clientId).where('status', 'in', SETTLED_STATUSES);
    if (currency !== null) query = query.where('currency', '=', currency);
    const credits = [];
    for (const row of await query.orderBy('date_added').orderBy('id').execute()) {
      const credit = await unapplied(this.ctx.db, { id: row.id, amount: stored(row.amount), refunded: stored(row.refunded) });
      if (credit.greaterThan(0)) credits.push({ transaction_id: row.id, currency: row.currency, credit: toStored(credit) });
    }
    return credits;
  }

  @callable({
    description: 'What is left of one transaction as credit (decimal string); false when there is no such transaction.',
    verb: 'GET',
    params: [int('transaction_id')],
    returns: orFalse(money()),
  })
  async getCreditedAmount(transactionId: number) {
    const transaction = await this.get(transactionId);
    return transaction ? (SETTLED_STATUSES.includes(transaction.status) ? transaction.credit : '0.0000') : false;
  }

  @callable({ description: "A client's total credit in a currency (decimal string).", verb: 'GET', params: [int('client_id'), string('currency')], returns: money() })
  async getTotalCredit(clientId: number, currency: string) {
    if (!(await findClient(this.ctx.db, this.ctx.companyId, clientId))) throw invalidClient();
    return toStored(await clientCredit(this.ctx.db, this.ctx.companyId, clientId, currency));
  }

  @callable({ description: "Tally's earlier name of getTotalCredit.", verb: 'GET', params: [int('client_id'), string('currency')], returns: money() })
  async getCredit(clientId: number, currency: string) {
    return this.getTotalCredit(clientId, currency);
  }

  @callable({ description: "The company's own transaction types ({id, company_id, type, name, is_lang}), beside the built-in cc, ach and other.", verb: 'GET', returns: listOf(TYPE) })
  async getTypes() {
    return this.types().all();
  }

  @callable({ description: "One of the company's transaction types; false when there is none.", verb: 'GET', params: [int('type_id')], returns: orFalse(TYPE) })
  async getType(typeId: number) {
    return this.types().get(typeId);
  }

  @callable({ description: 'The kinds a transaction type may be: debit or credit.', verb: 'GET', returns: mapOf(text()) })
  async getDebitTypes() {
    return DEBIT_TYPES;
  }

  /** The company's own transaction types (not callable). */
  types() {
    return new CustomTypes(this.ctx.db, this.ctx.companyId, 'transaction_types', 'type_id');
  }

  @callable({ description: 'The transaction statuses and their names.', verb: 'GET', returns: mapOf(text()) })
  async transactionStatusNames() {
    return STATUS_NAMES;
  }

  @callable({ description: 'The built-in transaction types and their names.', verb: 'GET', returns: mapOf(text()) })
  async transactionTypeNames() {
    return { cc: 'Credit Card', ach: 'ACH', other: 'Other' };
  }

  private listed(clientId: number | null, status: string, filters: unknown) {
    if (status !== 'all' && !Object.hasOwn(STATUS_NAMES, status)) throw TallyError.invalid({ status: { format: 'Invalid status.' } });
    let query = transactionQuery(this.ctx.db, this.ctx.companyId);
    if (clientId !== null) query = query.where('client_id', '=', clientId);
    if (status !== 'all') query = query.where('status', '=', status);
    const known = readFilters(filters, ['currency', 'type', 'date_from', 'date_to']);
    if (known.currency !== undefined) query = query.where('currency', '=', known.currency);
    if (known.type !== undefined) query = query.where('type', '=', known.type);
    // Days as UTC dates, both ends included: a transaction's date_added is a UTC timestamp.
    for (const end of ['date_from', 'date_to'] as const) {
      const day = known[end];
      if (day === undefined) continue;
      if (!isCalendarDay(day)) throw TallyError.invalid({ [`filters[${end}]`]: { format: 'Give the day as YYYY-MM-DD.' } });
      query = end === 'date_from' ? query.where('date_added', '>=', `${day} 00:00:00`) : query.where('date_added', '<=', `${day} 23:59:59`);
    }
    return query;
  }

  private matching(text: string) {
    const like = containsPattern(text);
    const column = (name: string) => sql`lower(coalesce(${sql.ref(name)}, ''))`;
    return transactionQuery(this.ctx.db, this.ctx.companyId).where((eb) => eb.or(['reference', 'reference_id', 'message'].map((name) => eb(column(name), 'like', like))));
  }

  private async count(query: ReturnType<typeof transactionQuery>) {
    const row = await query
      .clearSelect()
      .select(sql<number>`count(*)`.as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }
}
