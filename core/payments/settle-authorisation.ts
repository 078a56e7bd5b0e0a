import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { parseDecimal, toStored } from '../kernel/money';
import { TallyError } from '../kernel/tally-error';
import { gatewayModelFor } from './gateway-model-for';
import { NonsenseAnswer, readVerdict } from './gateway-verdict';
import { matchInvoices } from './invoice-match';
import { sendReceipt } from './send-receipt';
import { gatewayFailed } from './gateway-failed';

interface AuthorisedTransaction {
  id: number;
  client_id: number;
  gateway: string | null;
  reference: string | null;
  amount: string;
  currency: string;
  status: string;
}

/**
 * Captures (`capture`) or voids (`void`) a payment that a merchant gateway only authorised (a
 * pending transaction), through that gateway: the processor first, then the transaction follows in
 * the call's transaction — approved for what was captured and applied to the invoices it was
 * charged for when they still match, or void. The processor's refusal is a 400 naming the gateway
 * and nothing changes; a later notification of the same outcome is then a duplicate.
 */
export async function settleAuthorisation(ctx: CallContext, calls: ModelCalls, how: 'capture' | 'void', transactionId: number, amount: string | null) {
  const transaction = (await calls.call(ctx, 'transactions', 'get', { transaction_id: transactionId })) as AuthorisedTransaction | false;
  if (!transaction) throw TallyError.invalid({ transaction_id: { exists: 'The company has no transaction of this id.' } });
  if (transaction.status !== 'pending')
    throw TallyError.invalid({ transaction_id: { status: `Only a pending (authorised) payment can be ${how === 'capture' ? 'captured' : 'voided'}; this one is ${transaction.status}.` } });
  const model = await gatewayModelFor(ctx, calls, transaction.gateway, how);
  if (!model || !transaction.reference)
    throw TallyError.invalid({ transaction_id: { gateway: `The transaction was not taken by an installed gateway that can ${how} it (${transaction.gateway ?? 'none'}).` } });
  if (amount !== null && (how === 'void' || parseDecimal(amount) === null))
    throw TallyError.invalid({ amount: { format: 'The amount must be a number greater than 0, and only a capture takes one.' } });
  const gateway = transaction.gateway!;
  let answer: unknown;
  try {
    answer = await calls.call(ctx, model, how, { vars: { transaction_id: transaction.reference, currency: transaction.currency, ...(amount !== null ? { amount } : {}) } });
  } catch (error) {
    if (error instanceof TallyError && error.status === 400) throw error;
    throw gatewayFailed(gateway, `could not be asked to ${how} the payment`, 'nothing was changed');
  }
  let settled;
  try {
    const given = (answer ?? {}) as Record<string, unknown>;
    settled = readVerdict({ ...given, client_id: transaction.client_id, transaction_id: transaction.reference });
  } catch (error) {
    if (error instanceof NonsenseAnswer) throw gatewayFailed(gateway, `answered the ${how} with something other than the payment it became`, 'nothing was changed');
    throw error;
  }
  if (settled.kind !== 'payment' || settled.payment.status !== (how === 'capture' ? 'approved' : 'void') || settled.payment.currency !== transaction.currency)
    throw gatewayFailed(gateway, `answered the ${how} with another outcome`, 'nothing was changed');
  const payment = settled.payment;
  await calls.call(ctx, 'transactions', 'edit', { transaction_id: transactionId, vars: { status: payment.status, ...(how === 'capture' ? { amount: toStored(parseDecimal(payment.amount)!) } : {}) } });
  if (how === 'capture') {
    const match = await matchInvoices(ctx.db, ctx.companyId, payment);
    if (match.ok && match.invoices.length) await calls.call(ctx, 'transactions', 'apply', { transaction_id: transactionId, vars: { amounts: match.invoices } });
    await sendReceipt(ctx, calls, transactionId, 'merchant');
  }
  return calls.call(ctx, 'transactions', 'get', { transaction_id: transactionId });
}
