import { isUniqueViolation } from '../db/errors';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { assertValid } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { Amount, min, parseDecimal, stored, sum, toStored } from '../kernel/money';
import { any, bool, int, object, string } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { formatUtc, parseTimestamp } from '../kernel/timestamps';
import { optionalText, wholeNumber } from '../billing/values';
import { findClient, invalidClient } from '../billing/client-store';
import { lineList } from '../billing/lines';
import { lockInvoices } from '../billing/invoice-lock';
import { applyAllocations, lockAllocated } from './transactions/allocations';
import { unapplyFromInvoice } from '../billing/applying';
import { spendCredit } from './transactions/credit-spending';
import { allocationAmountRules, amountRules, gatewayName, linkRules, paymentRules, REFERENCE_TAKEN } from './transactions/payment-rules';
import { TransactionQueries } from './transactions/transaction-queries';
import { applications, LockedTransaction, lockTransaction, SETTLED_STATUSES, unapplied } from '../billing/transaction-store';
import { checkApplication } from './transactions/verify-apply';
import { bool as boolShape, int as count, money, nothing } from '../kernel/shape';
import { APPLY, PAYMENT_ADD, PAYMENT_EDIT, REFUND, TRANSACTION, TYPE_ADD, TYPE_EDIT, VERIFY_APPLY } from './transactions.fields';
import { emit } from '../events/emit';

/**
 * Payments and refunds, with the reference's signatures (reading methods in the TransactionQueries
 * facet, transactions/transaction-queries.ts). A payment belongs to a client and a currency; it is applied
 * to that client's invoices in that currency, and whatever it does not pay stays with it as the
 * client's credit. Every change locks the transaction, then the invoices in id order, so concurrent
 * payments, applications and refunds never lose or double a cent.
 */
@model('transactions', { facets: [TransactionQueries] })
export class Transactions {
  constructor(
    private readonly ctx: CallContext,
    private readonly queries: TransactionQueries,
  ) {}

  @callable({
    description:
      "Record a payment: vars[client_id], vars[amount], vars[currency], optional vars[type] (cc, ach, other; default other), vars[status] (approved, declined, void, error, pending, returned; default approved), vars[transaction_id] (the gateway's id for it; recorded once per gateway; Tally also reads vars[reference]), vars[gateway_id] (an installed gateway) or vars[gateway] (its name), vars[reference_id], vars[message], vars[parent_transaction_id], vars[account_id], vars[date_added] (default now), and vars[invoices][i][invoice_id] (or vars[amounts][i][invoice_id]) with optional [amount] to apply an approved payment to. What is not applied is the client's credit. Returns the transaction id.",
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: PAYMENT_ADD,
    returns: count({ description: 'The new transaction id.' }),
  })
  async add(given: Record<string, unknown>) {
    const db = this.ctx.db;
    const { transaction_id: gatewayId, amounts, ...rest } = given;
    const vars: Record<string, unknown> = { ...rest, reference: rest.reference ?? gatewayId, invoices: rest.invoices ?? amounts };
    if (vars.reference === undefined) delete vars.reference;
    if (vars.invoices === undefined) delete vars.invoices;
    await assertValid(vars, paymentRules(db, this.ctx.companyId, this.ctx.timezone));
    const status = optionalText(vars.status) ?? 'approved';
    if (status !== 'approved' && lineList(vars.invoices).length) throw TallyError.invalid({ status: { apply: 'Only an approved transaction can be applied to invoices.' } });
    const payer = { client_id: wholeNumber(vars.client_id)!, currency: String(vars.currency) };
    const { allocations, invoices } = await lockAllocated(db, this.ctx.companyId, vars.invoices, payer);
    const amount = parseDecimal(vars.amount)!.toDecimalPlaces(4);
    const now = formatUtc(new Date());
    const insert = db
      .insertInto('transactions')
      .values({
        company_id: this.ctx.companyId,
        ...payer,
        amount: toStored(amount),
        type: optionalText(vars.type) ?? 'other',
        gateway: optionalText(vars.gateway) ?? (await gatewayName(db, this.ctx.companyId, vars.gateway_id)),
        reference: optionalText(vars.reference),
        status,
        refunded: '0.0000',
        date_added: this.time(vars.date_added) ?? now,
        ...this.links(vars),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The same gateway notification arriving twice at once: the check above passed for both.
    const row = await insert.catch((error) => {
      throw isUniqueViolation(error) ? TallyError.invalid({ reference: { unique: REFERENCE_TAKEN } }) : error;
    });
    await applyAllocations(db, row.id, allocations, invoices, amount, now);
    await emit(this.ctx, 'Transactions.add', await this.queries.get(row.id));
    if (status === 'declined' || status === 'error') await emit(this.ctx, 'Payments.refused', await this.queries.get(row.id));
    return row.id;
  }

  @callable({
    description:
      "Change a transaction: vars[status] (leaving approved takes it off every invoice it paid, which reopen), vars[amount] (not below what it applied and refunded), vars[type], vars[transaction_id], vars[reference_id], vars[message], vars[gateway_id], vars[account_id], vars[date_added]. staff_id is accepted for the reference's log and not used. Returns the transaction id.",
    verb: 'PUT',
    params: [int('transaction_id'), object('vars'), int('staff_id', { default: null })],
    vars: PAYMENT_EDIT,
    returns: count({ description: 'The transaction id.' }),
  })
  async edit(transactionId: number, vars: Record<string, unknown>, _staffId: number | null) {
    const db = this.ctx.db;
    const transaction = await lockTransaction(db, this.ctx.companyId, transactionId);
    const committed = transaction.refunded.plus(sum((await applications(db, transactionId)).map((a) => stored(a.amount))));
    await assertValid(vars, {
      ...linkRules(db, this.ctx.companyId, transaction.client_id),
      amount: {
        ifSet: true,
        rules: [...amountRules(), { code: 'applied', message: 'The amount cannot be less than what the transaction has applied and refunded.', check: (v) => parseDecimal(v)!.gte(committed) }],
      },
      date_added: paymentRules(db, this.ctx.companyId, this.ctx.timezone).date_added,
      type: paymentRules(db, this.ctx.companyId, this.ctx.timezone).type,
    });
    const changes: Record<string, string | number | null> = { ...this.links(vars) };
    // Another gateway named by id: the reference is then that gateway's (the unique index holds it).
    const renamed = await gatewayName(db, this.ctx.companyId, vars.gateway_id);
    if (renamed !== null) changes.gateway = renamed;
    if (vars.status !== undefined) changes.status = String(vars.status);
    if (vars.amount !== undefined) changes.amount = toStored(parseDecimal(vars.amount)!.toDecimalPlaces(4));
    if (vars.type !== undefined) changes.type = String(vars.type);
    if (vars.transaction_id !== undefined) changes.reference = optionalText(vars.transaction_id);
    if (vars.date_added !== undefined) changes.date_added = this.time(vars.date_added);
    if (changes.status !== undefined && changes.status !== 'approved' && SETTLED_STATUSES.includes(transaction.status)) await this.unapplyAll(transaction);
    if (Object.keys(changes).length) {
      await db
        .updateTable('transactions')
        .set(changes)
        .where('id', '=', transactionId)
        .execute()
        .catch((error) => {
          throw isUniqueViolation(error) ? TallyError.invalid({ transaction_id: { unique: REFERENCE_TAKEN } }) : error;
        });
    }
    await emit(this.ctx, 'Transactions.edit', await this.queries.get(transactionId));
    return transactionId;
  }

  @callable({
    description: 'Delete a transaction: it is first taken off every invoice it paid (they reopen). A transaction with refunds is kept (400).',
    verb: 'DELETE',
    params: [int('transaction_id')],
    returns: nothing(),
  })
  async delete(transactionId: number) {
    const transaction = await lockTransaction(this.ctx.db, this.ctx.companyId, transactionId);
    if (transaction.refunded.greaterThan(0)) throw TallyError.invalid({ transaction_id: { refunded: 'A transaction with refunds cannot be deleted; void it with transactions/edit instead.' } });
    await this.unapplyAll(transaction);
    await this.ctx.db.deleteFrom('transactions').where('id', '=', transactionId).execute();
    return null;
  }

  @callable({
    description:
      'Apply what is left of an approved transaction (its credit) to invoices of its client and currency: vars[amounts][i][invoice_id] with optional vars[amounts][i][amount] (Tally also reads vars[invoices]), in order. Returns the transaction.',
    verb: 'POST',
    params: [int('transaction_id'), object('vars')],
    vars: APPLY,
    returns: TRANSACTION,
  })
  async apply(transactionId: number, vars: Record<string, unknown>) {
    const db = this.ctx.db;
    const transaction = await lockTransaction(db, this.ctx.companyId, transactionId);
    if (transaction.status !== 'approved') throw TallyError.invalid({ transaction_id: { status: 'Only an approved transaction can be applied to invoices.' } });
    const listName = vars.amounts !== undefined ? 'amounts' : 'invoices';
    await assertValid(vars, allocationAmountRules(listName));
    const { allocations, invoices } = await lockAllocated(db, this.ctx.companyId, vars[listName], transaction, listName);
    await applyAllocations(db, transactionId, allocations, invoices, await unapplied(db, transaction), formatUtc(new Date()));
    const applied = await this.queries.get(transactionId);
    await emit(this.ctx, 'Transactions.apply', applied);
    return applied;
  }

  @callable({
    description:
      "Take a transaction off the invoices it paid (a list of invoice ids, or all of them when invoices is null): what it paid returns to the client's credit and the invoices reopen. Returns the transaction.",
    verb: 'POST',
    params: [int('transaction_id'), any('invoices', { default: null })],
    returns: TRANSACTION,
  })
  async unApply(transactionId: number, invoices: unknown) {
    const transaction = await lockTransaction(this.ctx.db, this.ctx.companyId, transactionId);
    const only =
      invoices === null || invoices === '' ? null : (Array.isArray(invoices) ? invoices : typeof invoices === 'object' ? Object.values(invoices as object) : [invoices]).map((v) => wholeNumber(v));
    if (only?.some((id) => id === null)) throw TallyError.invalid({ invoices: { format: 'Give invoice ids, as invoices[]=1&invoices[]=2.' } });
    await this.unapplyAll(transaction, only as number[] | null);
    return this.queries.get(transactionId);
  }

  @callable({
    description:
      "Check an application without making it: vars[transaction_id] (when validate_trans_id) and vars[amounts][i][invoice_id|amount]; the amounts may not exceed the transaction's credit, or total when given, nor any invoice's due. Answers true, or 400 with the problems.",
    verb: 'GET',
    params: [object('vars'), bool('validate_trans_id', { default: true }), string('total', { default: null })],
    vars: VERIFY_APPLY,
    returns: boolShape(),
  })
  async verifyApply(vars: Record<string, unknown>, validateTransId: boolean, total: string | null) {
    await checkApplication(this.ctx.db, this.ctx.companyId, vars, validateTransId, total);
    return true;
  }

  @callable({
    description:
      "Spend a client's loose credit, oldest payment first: on amounts[i][invoice_id] (each up to amounts[i][amount]; needs currency) or else on its open invoices, earliest due first; in one currency or in each. Returns what was applied (decimal string).",
    verb: 'POST',
    params: [int('client_id'), string('currency', { default: null }), any('amounts', { default: [] })],
    returns: money(),
  })
  async applyFromCredits(clientId: number, currency: string | null, amounts: unknown) {
    if (!(await findClient(this.ctx.db, this.ctx.companyId, clientId))) throw invalidClient();
    const named = !!amounts && typeof amounts === 'object' && Object.keys(amounts).length > 0;
    if (named && currency === null) throw TallyError.invalid({ currency: { empty: 'Give the currency of the invoices amounts names.' } });
    const currencies =
      currency !== null
        ? [currency]
        : (await this.ctx.db.selectFrom('transactions').select('currency').distinct().where('company_id', '=', this.ctx.companyId).where('client_id', '=', clientId).orderBy('currency').execute()).map(
            (r) => r.currency,
          );
    let applied = stored(0);
    for (const code of currencies) applied = applied.plus(await spendCredit(this.ctx.db, this.ctx.companyId, clientId, code, amounts, formatUtc(new Date())));
    return toStored(applied);
  }

  @callable({
    description: 'Add a transaction type of the company: vars[name], vars[type] (debit or credit), optional vars[is_lang]. Returns its id.',
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: TYPE_ADD,
    returns: count({ description: 'The new type id.' }),
  })
  async addType(vars: Record<string, unknown>) {
    return this.queries.types().add(vars);
  }

  @callable({ description: 'Change vars[name], vars[type] or vars[is_lang] of a transaction type.', verb: 'PUT', params: [int('type_id'), object('vars')], vars: TYPE_EDIT, returns: nothing() })
  async editType(typeId: number, vars: Record<string, unknown>) {
    await this.queries.types().edit(typeId, vars);
    return null;
  }

  @callable({ description: 'Delete a transaction type; transactions that named it keep their built-in type.', verb: 'DELETE', params: [int('type_id')], returns: nothing() })
  async deleteType(typeId: number) {
    await this.queries.types().delete(typeId);
    return null;
  }

  @callable({
    description:
      "Refund a transaction, wholly or vars[amount] of it, with optional vars[reference] (the gateway's refund id). The refund comes out of its credit first, then out of the invoices it paid (latest first), which reopen. A transaction refunded in full has status refunded. Returns the transaction.",
    verb: 'POST',
    params: [int('transaction_id'), object('vars', { default: {} })],
    vars: REFUND,
    returns: TRANSACTION,
  })
  async refund(transactionId: number, vars: Record<string, unknown>) {
    const db = this.ctx.db;
    const transaction = await lockTransaction(db, this.ctx.companyId, transactionId);
    if (!SETTLED_STATUSES.includes(transaction.status)) throw TallyError.invalid({ transaction_id: { status: 'Only an approved transaction can be refunded.' } });
    const refundable = transaction.amount.minus(transaction.refunded);
    await assertValid(vars, {
      amount: {
        ifSet: true,
        rules: [...amountRules(), { code: 'maximum', message: 'The refund cannot exceed what is left to refund of the transaction.', check: (v) => parseDecimal(v)!.lte(refundable) }],
      },
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
    return this.queries.get(transactionId);
  }

  /** The reference's optional link columns named in vars. */
  private links(vars: Record<string, unknown>) {
    const links: Record<string, string | number | null> = {};
    for (const field of ['gateway_id', 'account_id', 'parent_transaction_id', 'transaction_type_id'] as const) if (vars[field] !== undefined) links[field] = wholeNumber(vars[field]);
    for (const field of ['reference_id', 'message'] as const) if (vars[field] !== undefined) links[field] = optionalText(vars[field]);
    return links;
  }

  private time(value: unknown): string | null {
    return typeof value === 'string' && value.trim() !== '' ? formatUtc(parseTimestamp(value, this.ctx.timezone)!) : null;
  }

  /** Takes a locked transaction off the invoices it paid (those named, or all): they reopen, the money is credit again. */
  private async unapplyAll(transaction: LockedTransaction, only: number[] | null = null): Promise<void> {
    const paidOn = (await applications(this.ctx.db, transaction.id)).map((a) => a.invoice_id).filter((id) => only === null || only.includes(id));
    const now = formatUtc(new Date());
    for (const invoice of await lockInvoices(this.ctx.db, this.ctx.companyId, paidOn)) {
      await unapplyFromInvoice(this.ctx.db, transaction.id, invoice, invoice.total, now);
    }
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
