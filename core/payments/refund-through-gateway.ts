import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { parseDecimal, stored, toStored } from '../kernel/money';
import { TallyError } from '../kernel/tally-error';
import { gatewayModelFor } from './gateway-model-for';

interface RefundedTransaction {
  id: number;
  gateway: string | null;
  reference: string | null;
  amount: string;
  refunded: string;
  currency: string;
  status: string;
}

/**
 * Refunds a transaction through the gateway that took it, in the call's transaction: Tally's
 * refund is made first (it checks the status and what is left to refund, and reopens the invoices),
 * then the gateway's; the gateway's refusal throws and so undoes Tally's, so the processor and
 * Tally never disagree. The Idempotency-Key is the same for the same refund of the same
 * transaction (what was refunded before it, and its amount): a retry after a lost answer is the
 * same refund at the processor, never a second one.
 */
export async function refundThroughGateway(ctx: CallContext, calls: ModelCalls, transactionId: number, amount: unknown): Promise<unknown> {
  const transaction = (await calls.call(ctx, 'transactions', 'get', { transaction_id: transactionId })) as RefundedTransaction | false;
  if (!transaction) throw TallyError.invalid({ transaction_id: { exists: 'The company has no transaction of this id.' } });
  const gateway = transaction.gateway ?? '';
  const model = await gatewayModelFor(ctx, calls, gateway, 'refund');
  if (!model || !transaction.reference) {
    throw TallyError.invalid({
      transaction_id: { gateway: `The transaction was not taken by an installed gateway that refunds (${gateway || 'none'}); record a refund made elsewhere with transactions/refund.` },
    });
  }
  const left = stored(transaction.amount).minus(stored(transaction.refunded));
  const wanted = amount === undefined || amount === null || amount === '' ? left : parseDecimal(amount);
  if (wanted === null) throw TallyError.invalid({ amount: { format: 'The amount must be a number greater than 0.' } });
  const refunded = (await calls.call(ctx, 'transactions', 'refund', { transaction_id: transactionId, vars: { amount: toStored(wanted) } })) as { refunded: string };
  let answer: { refund_id?: unknown; status?: unknown };
  try {
    answer = (await calls.call(ctx, model, 'refund', {
      vars: {
        transaction_id: transaction.reference,
        amount: toStored(wanted),
        currency: transaction.currency,
        idempotency_key: `tally-${ctx.companyId}-${transactionId}-refund-${toStored(stored(transaction.refunded))}-${toStored(wanted)}`,
      },
    })) as typeof answer;
  } catch (error) {
    if (error instanceof TallyError && error.status === 400) throw error;
    throw TallyError.invalid({ gateway: { failed: `The gateway "${gateway}" could not be asked to refund; nothing was changed.` } });
  }
  if (!answer || typeof answer.refund_id !== 'string' || answer.refund_id.length > 255)
    throw TallyError.invalid({ gateway: { failed: `The gateway "${gateway}" answered the refund without its refund id; nothing was changed.` } });
  // The refund transactions/refund just wrote is the transaction's latest: it gets the processor's refund id.
  const latest = await ctx.db.selectFrom('transaction_refunds').select('id').where('transaction_id', '=', transactionId).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
  await ctx.db.updateTable('transaction_refunds').set({ reference: answer.refund_id }).where('id', '=', latest.id).execute();
  return { ...((await calls.call(ctx, 'transactions', 'get', { transaction_id: transactionId })) as object), refunded: refunded.refunded };
}
