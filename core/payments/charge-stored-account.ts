import { findAccount } from '../billing/account-ops';
import { invalidAccount } from '../billing/account-store';
import { callGateway } from '../billing/gateway-answers';
import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { inShortTransaction } from '../kernel/short-transaction';
import { TallyError } from '../kernel/tally-error';
import { settleChargeAttempt, startChargeAttempt } from './charge-attempts';
import { payableInvoices } from './payable-invoices';
import { recordReportedPayment } from './record-reported-payment';
import { sendReceipt } from './send-receipt';

/** What charging a stored account came to: the gateway's verdict, and the payment recorded for an approved one. */
export interface StoredAccountCharge {
  readonly status: 'approved' | 'declined' | 'error';
  readonly message: string;
  readonly transaction_id: number | null;
  /** What was charged (all that is due on the invoices), and its currency. */
  readonly amount: string;
  readonly currency: string;
}

/**
 * Charges all that is due on open invoices of one client to an active stored account of that
 * client, now, through the merchant gateway that stored it (its `tokens/charge`, the reference's
 * processStoredCc and processStoredAch, the call the billing run's auto debit makes), as one payment
 * applied to each. The one use case behind gateway_payments/payInvoice and
 * accounts/chargeInvoice(s). Invoices, account and gateway are checked first (a 400 under `field` or
 * account_id, nothing charged). The gateway records an approved charge itself; the payment then
 * names the account it was made from, and the client's receipt is queued.
 *
 * The gateway talks to its processor, so no transaction is held meanwhile (the callers own their
 * transactions). Should the processor's own notification about the charge have been recorded
 * first, the gateway answers the approval with the processor's id (`reference`) and no
 * transaction of its own: the payment is the one the notification recorded, adopted here once per
 * gateway transaction id, and the caller is told it was approved, with that transaction.
 */
export async function chargeStoredAccount(ctx: CallContext, calls: ModelCalls, accountId: number, invoiceIds: readonly number[], field: string): Promise<StoredAccountCharge> {
  const paying = await payableInvoices(ctx, invoiceIds, field);
  const account = await findAccount(ctx, accountId);
  if (!account || account.status !== 'active' || account.client_id !== paying.clientId) throw invalidAccount();
  if (!(await calls.available(ctx, `${account.gateway}.tokens`, 'charge')))
    throw TallyError.invalid({ account_id: { gateway: `The account's gateway "${account.gateway}" is not installed and enabled.` } });
  const attempt = await startChargeAttempt(ctx, { clientId: paying.clientId, accountId: account.id, amount: paying.amount, currency: paying.currency });
  const answer = (await callGateway(
    ctx,
    calls,
    account.gateway,
    'charge',
    {
      vars: {
        reference_id: account.reference_id,
        client_id: paying.clientId,
        amount: paying.amount,
        currency: paying.currency,
        invoices: paying.invoices,
        idempotency_key: attempt.idempotencyKey,
      },
    },
    'charge the account',
  )) as { status?: unknown; message?: unknown; transaction_id?: unknown; reference?: unknown } | null;
  const status = answer?.status === 'approved' ? 'approved' : answer?.status === 'declined' ? 'declined' : 'error';
  const given = status === 'approved' && Number.isSafeInteger(Number(answer?.transaction_id)) && Number(answer?.transaction_id) > 0 ? Number(answer!.transaction_id) : null;
  const reference = typeof answer?.reference === 'string' && answer.reference.length <= 255 ? answer.reference : null;
  /** The approved payment's transaction: the gateway's own, or the one the processor's notification recorded, adopted; named by the account. */
  const adopted = async (tx: CallContext): Promise<number | null> => {
    const id =
      given ??
      (reference === null
        ? null
        : (
            await recordReportedPayment(
              tx,
              calls,
              { gateway: account.gateway, kind: 'merchant', notificationId: null },
              {
                client_id: paying.clientId,
                amount: paying.amount,
                currency: paying.currency,
                status: 'approved',
                transaction_id: reference,
                parent_transaction_id: null,
                invoices: paying.invoices,
              },
            )
          ).transactionId);
    if (id === null) return null;
    // The payment names the stored account it was made from, as auto debit's do: only the core knows which account the token is.
    await tx.db
      .updateTable('transactions')
      .set({ account_id: account.id })
      .where('id', '=', id)
      .where('company_id', '=', ctx.companyId)
      .where('client_id', '=', paying.clientId)
      .where('account_id', 'is', null)
      .execute();
    if (given !== null) await sendReceipt(tx, calls, id, 'merchant');
    return id;
  };
  const transactionId = await inShortTransaction(ctx, async (tx) => {
    const id = status !== 'approved' ? null : await adopted(tx);
    await settleChargeAttempt(tx, attempt, status === 'approved' && id === null ? 'error' : status, id);
    return id;
  });
  const message = typeof answer?.message === 'string' ? answer.message.slice(0, 500) : status === 'approved' ? 'The payment was approved.' : 'The gateway did not approve the payment.';
  return { status: status === 'approved' && transactionId === null ? 'error' : status, message, transaction_id: transactionId, amount: paying.amount, currency: paying.currency };
}
