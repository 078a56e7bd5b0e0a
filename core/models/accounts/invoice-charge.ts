import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { ModelCalls } from '../../kernel/model-calls';
import { int, list } from '../../kernel/parameter';
import { int as id, record, string as text } from '../../kernel/shape';
import { is } from '../../kernel/input-rules';
import { TallyError } from '../../kernel/tally-error';
import { findAccount } from '../../billing/account-ops';
import { invalidAccount } from '../../billing/account-store';
import { callGateway } from '../../billing/gateway-answers';
import { MAX_INVOICES_AT_ONCE, payableInvoices } from '../../payments/payable-invoices';
import { sendReceipt } from '../../payments/send-receipt';

const CHARGED = record({
  status: text({ enum: ['approved', 'declined', 'error'] }),
  message: text(),
  transaction_id: id({ nullable: true, description: 'The payment recorded for an approved charge.' }),
  amount: text({ format: 'money', description: 'What was charged (the amount due).' }),
  currency: text(),
});

/**
 * Paying one open invoice (or several of one client) now with a stored account of its client: the amount due is charged
 * through the account's merchant gateway (`<gateway>.tokens/charge`, the call the billing run's
 * autodebit makes), which records the payment on the invoice when it is approved, and the client's
 * receipt is queued with it. The client area
 * pays this way; staff can over the API. A facet of the accounts model, so `accounts/chargeInvoice`.
 */
@facet('accounts')
export class InvoiceCharge {
  constructor(
    private readonly ctx: CallContext,
    private readonly calls: ModelCalls,
  ) {}

  @callable({
    verb: 'POST',
    params: [int('account_id'), int('invoice_id')],
    returns: CHARGED,
    description:
      "Charge what is due on an open invoice to an active stored account of the invoice's client, through the account's gateway. Answers { status (approved, declined, error), message, transaction_id, amount, currency }; 400 for an account or invoice that is not the client's, a closed invoice or nothing due.",
  })
  chargeInvoice(accountId: number, invoiceId: number) {
    return this.charge(accountId, [invoiceId], 'invoice_id');
  }

  @callable({
    verb: 'POST',
    params: [int('account_id'), list('invoice_ids')],
    returns: CHARGED,
    description: `Charge what is due on several open invoices of one client, in one currency (at most ${MAX_INVOICES_AT_ONCE}), to an active stored account of that client as one payment applied to each. Answers as chargeInvoice; 400 (invoice_ids) when an invoice is not the client's, closed, has nothing due or is in another currency, and nothing is charged.`,
  })
  chargeInvoices(accountId: number, invoiceIds: unknown[]) {
    if (!invoiceIds.every((id) => is.integer(id))) throw TallyError.invalid({ invoice_ids: { format: 'Give the invoices as a list of invoice ids.' } });
    return this.charge(accountId, invoiceIds.map(Number), 'invoice_ids');
  }

  private async charge(accountId: number, invoiceIds: number[], field: string) {
    const paying = await payableInvoices(this.ctx, invoiceIds, field);
    const account = await findAccount(this.ctx, accountId);
    if (!account || account.status !== 'active' || account.client_id !== paying.clientId) throw invalidAccount();
    const answer = (await callGateway(
      this.ctx,
      this.calls,
      account.gateway,
      'charge',
      { vars: { reference_id: account.reference_id, client_id: paying.clientId, amount: paying.amount, currency: paying.currency, invoices: paying.invoices } },
      'charge the account',
    )) as { status?: unknown; message?: unknown; transaction_id?: unknown } | null;
    const status = answer?.status === 'approved' ? 'approved' : answer?.status === 'declined' ? 'declined' : 'error';
    const transactionId = status === 'approved' && answer?.transaction_id ? Number(answer.transaction_id) : null;
    // The payment names the stored account it was made from, as autodebit's do: only the core knows which account the token is.
    if (transactionId) {
      await this.ctx.db
        .updateTable('transactions')
        .set({ account_id: account.id })
        .where('id', '=', transactionId)
        .where('company_id', '=', this.ctx.companyId)
        .where('client_id', '=', paying.clientId)
        .where('account_id', 'is', null)
        .execute();
      await sendReceipt(this.ctx, this.calls, transactionId, 'merchant');
    }
    const message = typeof answer?.message === 'string' ? answer.message : status === 'approved' ? 'The payment was approved.' : 'The gateway did not approve the payment.';
    return { status, message, transaction_id: transactionId, amount: paying.amount, currency: paying.currency };
  }
}
