import { Tx } from '../../db/schema';
import { FieldErrors } from '../../kernel/errors';
import { parseDecimal, stored, sum } from '../../kernel/money';
import { TallyError } from '../../kernel/tally-error';
import { wholeNumber } from '../../billing/values';
import { lineList } from '../../billing/lines';
import { allocationAmount } from './allocations';
import { PAYABLE_STATUSES } from '../../billing/applying';
import { transactionQuery, unapplied } from '../../billing/transaction-store';

/**
 * verifyApply: the checks of transactions/apply without applying (and without locking, so it runs
 * in a read-only call): each amounts[i] names an open invoice of the company, in the transaction's
 * client and currency when there is one, and asks no more than the invoice's due; the total asks
 * no more than the transaction's credit (validate_trans_id) or `total`.
 */
export async function checkApplication(db: Tx, companyId: number, vars: Record<string, unknown>, validateTransId: boolean, total: string | null): Promise<void> {
  const errors: FieldErrors = {};
  let limit = total === null ? null : parseDecimal(total);
  if (total !== null && limit === null) errors.total = { format: 'The total must be a number.' };
  let payer: { client_id: number; currency: string } | null = null;
  if (validateTransId) {
    const row = await transactionQuery(db, companyId)
      .where('id', '=', wholeNumber(vars.transaction_id) ?? -1)
      .executeTakeFirst();
    if (!row || row.status !== 'approved') errors.transaction_id = { exists: 'Invalid transaction ID.' };
    else {
      payer = row;
      const credit = await unapplied(db, { id: row.id, amount: stored(row.amount), refunded: stored(row.refunded) });
      limit = limit === null || credit.lessThan(limit) ? credit : limit;
    }
  }
  const entries = lineList(vars.amounts);
  const asked = [];
  for (const [i, entry] of entries.entries()) {
    const key = `amounts[${i}]`;
    const invoice = await db
      .selectFrom('invoices')
      .select(['client_id', 'currency', 'status', 'total', 'paid'])
      .where('company_id', '=', companyId)
      .where('id', '=', wholeNumber(entry.invoice_id) ?? -1)
      .executeTakeFirst();
    const amount = allocationAmount(entry.amount);
    if (!invoice || (payer && invoice.client_id !== payer.client_id)) errors[`${key}[invoice_id]`] = { exists: 'Invalid invoice ID.' };
    else if (!PAYABLE_STATUSES.includes(invoice.status)) errors[`${key}[invoice_id]`] = { status: 'Payments apply only to active or proforma invoices.' };
    else if (payer && invoice.currency !== payer.currency) errors[`${key}[invoice_id]`] = { currency: 'The invoice is billed in another currency than the payment.' };
    else if (!amount || amount.lte(0)) errors[`${key}[amount]`] = { format: 'The amount to apply must be a number greater than 0.' };
    else if (amount.greaterThan(stored(invoice.total).minus(stored(invoice.paid)))) errors[`${key}[amount]`] = { maximum: 'The amount exceeds what is due on the invoice.' };
    else asked.push(amount);
  }
  if (limit !== null && sum(asked).greaterThan(limit)) errors.amounts = { maximum: 'The amounts exceed what the transaction (or total) can pay.' };
  if (Object.keys(errors).length) throw TallyError.invalid(errors);
}
