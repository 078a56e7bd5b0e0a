import { isUniqueViolation } from '../db/errors';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { assertValid } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { Amount, min, parseDecimal, stored, toStored } from '../kernel/money';
import { int, object, string } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { formatUtc, parseTimestamp } from '../kernel/timestamps';
import { optionalText, pageOffset, wholeNumber } from './billing/values';
import { findClient, invalidClient } from './clients';
import { lockInvoice, lockInvoices } from './invoices/invoice-lock';
import { applyAllocations, lockAllocated } from './transactions/allocations';
import { unapplyFromInvoice } from './transactions/applying';
import { allocationAmountRules, amountRules, paymentRules, REFERENCE_TAKEN } from './transactions/payment-rules';
import { applications, clientCredit, LockedTransaction, lockTransaction, presentTransaction, readTransaction, transactionQuery, unapplied } from './transactions/transaction-store';
import { int as count, listOf, money, orNull } from '../kernel/shape';
import { APPLY, PAYMENT_ADD, REFUND, TRANSACTION, TRANSACTION_SUMMARY } from './transactions.fields';

const PAGE_SIZE = 25;

/**
 * Payments and refunds. A payment belongs to a client and a currency; it is applied to that
 * client's invoices in that currency, and whatever it does not pay stays with it as the client's
 * credit, to be applied later. Every change locks the transaction, then the invoices in id order,
 * so concurrent payments, applications and refunds never lose or double a cent.
 */
@model('transactions')
export class Transactions {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description:
      'Record a payment: vars[client_id], vars[amount], vars[currency], optional vars[type] (cc, ach, other; default other), vars[gateway] (the gateway that took it), vars[reference] (its id there; recorded once per gateway), vars[date_added] (when it was paid; default now), and vars[invoices][i][invoice_id] with optional vars[invoices][i][amount] to apply it to, in order. What is not applied is the client\'s credit. Returns the transaction id. Gateways record their payments with this method.',
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: PAYMENT_ADD,
    returns: count({ description: 'The new transaction id.' }),
  })
  async add(vars: Record<string, unknown>) {
    const db = this.ctx.db;
    await assertValid(vars, paymentRules(db, this.ctx.companyId, this.ctx.timezone));
    const payer = { client_id: wholeNumber(vars.client_id)!, currency: String(vars.currency) };
    const { allocations, invoices } = await lockAllocated(db, this.ctx.companyId, vars.invoices, payer);
    const amount = parseDecimal(vars.amount)!.toDecimalPlaces(4);
    const now = formatUtc(new Date());
    const paidAt = typeof vars.date_added === 'string' ? formatUtc(parseTimestamp(vars.date_added, this.ctx.timezone)!) : now;
    const insert = db
      .insertInto('transactions')
      .values({
        company_id: this.ctx.companyId,
        ...payer,
        amount: toStored(amount),
        type: optionalText(vars.type) ?? 'other',
        gateway: optionalText(vars.gateway),
        reference: optionalText(vars.reference),
        status: 'approved',
        refunded: '0.0000',
        date_added: paidAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The same gateway notification arriving twice at once: the check above passed for both.
    const row = await insert.catch((error) => {
      throw isUniqueViolation(error) ? TallyError.invalid({ reference: { unique: REFERENCE_TAKEN } }) : error;
    });
    await applyAllocations(db, row.id, allocations, invoices, amount, now);
    return row.id;
  }

  @callable({ description: 'Fetch a transaction with what it paid on which invoice, its refunds and its credit (what is left of it); null when there is none.', verb: 'GET', params: [int('transaction_id')], returns: orNull(TRANSACTION) })
  async get(transactionId: number) {
    return readTransaction(this.ctx.db, this.ctx.companyId, transactionId);
  }

  @callable({ description: 'One page (25) of transactions, newest first, optionally of one client.', verb: 'GET', params: [int('client_id', { default: null }), int('page', { default: 1 })], returns: listOf(TRANSACTION_SUMMARY) })
  async getList(clientId: number | null, page: number) {
    let query = transactionQuery(this.ctx.db, this.ctx.companyId);
    if (clientId !== null) query = query.where('client_id', '=', clientId);
    const rows = await query.orderBy('date_added', 'desc').orderBy('id', 'desc').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
    return rows.map(presentTransaction);
  }

  @callable({ description: 'Count transactions, optionally of one client.', verb: 'GET', params: [int('client_id', { default: null })], returns: count() })
  async getListCount(clientId: number | null) {
    let query = this.ctx.db.selectFrom('transactions').select((eb) => eb.fn.countAll<number>().as('count')).where('company_id', '=', this.ctx.companyId);
    if (clientId !== null) query = query.where('client_id', '=', clientId);
    return Number((await query.executeTakeFirstOrThrow()).count);
  }

  @callable({ description: 'A client\'s credit in a currency: what its payments have left after invoices and refunds (four places).', verb: 'GET', params: [int('client_id'), string('currency', { format: 'currency' })], returns: money() })
  async getCredit(clientId: number, currency: string) {
    if (!(await findClient(this.ctx.db, this.ctx.companyId, clientId))) throw invalidClient();
    return toStored(await clientCredit(this.ctx.db, this.ctx.companyId, clientId, currency));
  }

  @callable({
    description: 'Apply what is left of a transaction (its credit) to invoices of its client and currency: vars[invoices][i][invoice_id] with optional vars[invoices][i][amount], in order. Returns the transaction.',
    verb: 'POST',
    params: [int('transaction_id'), object('vars')],
    vars: APPLY,
    returns: TRANSACTION,
  })
  async apply(transactionId: number, vars: Record<string, unknown>) {
    const db = this.ctx.db;
    const transaction = await lockTransaction(db, this.ctx.companyId, transactionId);
    await assertValid(vars, allocationAmountRules);
    const { allocations, invoices } = await lockAllocated(db, this.ctx.companyId, vars.invoices, transaction);
    await applyAllocations(db, transactionId, allocations, invoices, await unapplied(db, transaction), formatUtc(new Date()));
    return this.get(transactionId);
  }

  @callable({
    description: 'Take back what a transaction paid on an invoice (all of it, or at most amount): it returns to the client\'s credit and the invoice reopens. Returns the transaction.',
    verb: 'POST',
    params: [int('transaction_id'), int('invoice_id'), string('amount', { default: null, format: 'money' })],
    returns: TRANSACTION,
  })
  async unapply(transactionId: number, invoiceId: number, amount: string | null) {
    const db = this.ctx.db;
    await lockTransaction(db, this.ctx.companyId, transactionId);
    const invoice = await lockInvoice(db, this.ctx.companyId, invoiceId);
    if (amount !== null) await assertValid({ amount }, { amount: amountRules() });
    const limit = amount === null ? invoice.total : parseDecimal(amount)!.toDecimalPlaces(4);
    await unapplyFromInvoice(db, transactionId, invoice, limit, formatUtc(new Date()));
    return this.get(transactionId);
  }

  @callable({
    description:
      'Refund a transaction, wholly or vars[amount] of it, with optional vars[reference] (the gateway\'s refund id). The refund comes out of its credit first, then out of the invoices it paid (latest first), which reopen. A transaction refunded in full has status refunded. Returns the transaction.',
    verb: 'POST',
    params: [int('transaction_id'), object('vars', { default: {} })],
    vars: REFUND,
    returns: TRANSACTION,
  })
  async refund(transactionId: number, vars: Record<string, unknown>) {
    const db = this.ctx.db;
    const transaction = await lockTransaction(db, this.ctx.companyId, transactionId);
    const refundable = transaction.amount.minus(transaction.refunded);
    await assertValid(vars, {
      amount: { ifSet: true, rules: [...amountRules(), { code: 'maximum', message: 'The refund cannot exceed what is left to refund of the transaction.', check: (v) => parseDecimal(v)!.lte(refundable) }] },
      reference: { ifSet: true, rules: [{ code: 'length', message: 'The reference may be at most 255 characters long.', check: (v) => String(v).length <= 255 }] },
    });
    const amount = vars.amount === undefined ? refundable : parseDecimal(vars.amount)!.toDecimalPlaces(4);
    if (amount.lte(0)) throw TallyError.invalid({ transaction_id: { refunded: 'The transaction has already been refunded in full.' } });
    await this.takeBack(transaction, amount, formatUtc(new Date()));
    const refunded = transaction.refunded.plus(amount);
    await db
      .updateTable('transactions')
      .set({ refunded: toStored(refunded), status: refunded.equals(transaction.amount) ? 'refunded' : 'approved' })
      .where('id', '=', transactionId)
      .execute();
    await db
      .insertInto('transaction_refunds')
      .values({ transaction_id: transactionId, amount: toStored(amount), reference: optionalText(vars.reference), date_added: formatUtc(new Date()) })
      .execute();
    return this.get(transactionId);
  }

  /**
   * Frees `amount` of a locked transaction for a refund: out of its credit first, then out of the
   * invoices it paid, latest application first. The invoices are locked before what was applied is
   * read for the last time, so a concurrent void of one of them cannot change it under us.
   */
  private async takeBack(transaction: LockedTransaction, amount: Amount, now: string): Promise<void> {
    const db = this.ctx.db;
    const paidOn = (await applications(db, transaction.id)).map((a) => a.invoice_id);
    const invoices = new Map((await lockInvoices(db, this.ctx.companyId, paidOn)).map((i) => [i.id, i]));
    let left = amount.minus(await unapplied(db, transaction));
    for (const application of await applications(db, transaction.id)) {
      if (left.lte(0)) break;
      const take = min(left, stored(application.amount));
      left = left.minus(await unapplyFromInvoice(db, transaction.id, invoices.get(application.invoice_id)!, take, now));
    }
  }
}
