import { callGateway } from '../billing/gateway-answers';
import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { stored, toStored } from '../kernel/money';
import { TallyError } from '../kernel/tally-error';
import { sendReceipt } from './send-receipt';

export interface ChargeOutcome {
  readonly status: 'approved' | 'declined';
  readonly message: string | null;
  readonly transaction_id: number | null;
}

/**
 * Charges what is due on an open invoice to one of its client's stored accounts now, through the
 * merchant gateway that stored it (its `tokens/charge`, the reference's processStoredCc and
 * processStoredAch in one), as the billing run's auto debit does. An approved charge is the
 * gateway's transaction, applied to the invoice and naming the account; a decline is an answer,
 * not an error (the gateway keeps the attempt). The invoice, the account and the gateway are the
 * caller's company's and the account is the invoice's client's, or it is a 400 and nothing is charged.
 * An approved charge queues the client's receipt (sendReceipt) with it.
 */
export async function payInvoiceNow(ctx: CallContext, calls: ModelCalls, invoiceId: number, accountId: number): Promise<ChargeOutcome> {
  const invoice = await ctx.db
    .selectFrom('invoices')
    .select(['id', 'client_id', 'currency', 'status', 'total', 'paid', 'date_closed'])
    .where('company_id', '=', ctx.companyId)
    .where('id', '=', invoiceId)
    .executeTakeFirst();
  if (!invoice) throw TallyError.invalid({ invoice_id: { exists: 'The company has no invoice of this id.' } });
  const due = stored(invoice.total).minus(stored(invoice.paid));
  if (!['active', 'proforma'].includes(invoice.status) || invoice.date_closed !== null || due.lte(0)) throw TallyError.invalid({ invoice_id: { open: 'The invoice has nothing due to pay.' } });
  const account = await ctx.db
    .selectFrom('accounts')
    .select(['id', 'client_id', 'gateway', 'reference_id', 'status'])
    .where('company_id', '=', ctx.companyId)
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!account || account.status !== 'active' || Number(account.client_id) !== Number(invoice.client_id)) {
    throw TallyError.invalid({ account_id: { exists: "The account is not an active stored account of the invoice's client." } });
  }
  if (!(await calls.available(ctx, `${account.gateway}.tokens`, 'charge')))
    throw TallyError.invalid({ account_id: { gateway: `The account's gateway "${account.gateway}" is not installed and enabled.` } });
  const answer = (await callGateway(
    ctx,
    calls,
    account.gateway,
    'charge',
    {
      vars: { reference_id: account.reference_id, client_id: invoice.client_id, amount: toStored(due), currency: invoice.currency, invoices: [{ invoice_id: invoiceId, amount: toStored(due) }] },
    },
    'charge the account',
  )) as { status?: unknown; message?: unknown; transaction_id?: unknown } | null;
  const approved = answer?.status === 'approved' && Number.isSafeInteger(Number(answer.transaction_id)) && Number(answer.transaction_id) > 0;
  if (answer?.status !== 'declined' && !approved)
    throw TallyError.invalid({ gateway: { failed: `The gateway "${account.gateway}" answered the charge with neither an approved transaction nor a decline.` } });
  const message = typeof answer?.message === 'string' ? answer.message.slice(0, 500) : null;
  if (!approved) return { status: 'declined', message, transaction_id: null };
  const transactionId = Number(answer!.transaction_id);
  // The payment names the stored account it was made from, as the reference's do (and as auto debit does).
  await ctx.db.updateTable('transactions').set({ account_id: accountId }).where('id', '=', transactionId).where('company_id', '=', ctx.companyId).where('account_id', 'is', null).execute();
  await sendReceipt(ctx, calls, transactionId, 'merchant');
  return { status: 'approved', message, transaction_id: transactionId };
}
