import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { ModelCalls } from '../../kernel/model-calls';
import { int } from '../../kernel/parameter';
import { int as id, record, string as text } from '../../kernel/shape';
import { stored, toStored } from '../../kernel/money';
import { TallyError } from '../../kernel/tally-error';
import { findAccount } from '../../billing/account-ops';
import { invalidAccount } from '../../billing/account-store';
import { callGateway } from '../../billing/gateway-answers';
import { sendReceipt } from '../../payments/send-receipt';

const CHARGED = record({
  status: text({ enum: ['approved', 'declined', 'error'] }),
  message: text(),
  transaction_id: id({ nullable: true, description: 'The payment recorded for an approved charge.' }),
  amount: text({ format: 'money', description: 'What was charged (the amount due).' }),
  currency: text(),
});

const OPEN_STATUSES = ['active', 'proforma'];

/**
 * Paying one open invoice now with a stored account of its client: the amount due is charged
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
  async chargeInvoice(accountId: number, invoiceId: number) {
    const invoice = await this.ctx.db
      .selectFrom('invoices')
      .select(['id', 'client_id', 'status', 'date_closed', 'total', 'paid', 'currency'])
      .where('id', '=', invoiceId)
      .where('company_id', '=', this.ctx.companyId)
      .executeTakeFirst();
    if (!invoice) throw TallyError.invalid({ invoice_id: { exists: 'Invalid invoice ID.' } });
    const account = await findAccount(this.ctx, accountId);
    if (!account || account.status !== 'active' || account.client_id !== invoice.client_id) throw invalidAccount();
    if (!OPEN_STATUSES.includes(invoice.status) || invoice.date_closed !== null) throw TallyError.invalid({ invoice_id: { open: 'This invoice is not open for payment.' } });
    const due = stored(invoice.total).minus(stored(invoice.paid));
    if (due.lte(0)) throw TallyError.invalid({ invoice_id: { due: 'Nothing is due on this invoice.' } });
    const amount = toStored(due);
    const answer = (await callGateway(
      this.ctx,
      this.calls,
      account.gateway,
      'charge',
      { vars: { reference_id: account.reference_id, client_id: invoice.client_id, amount, currency: invoice.currency, invoices: [{ invoice_id: invoice.id, amount }] } },
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
        .where('client_id', '=', invoice.client_id)
        .where('account_id', 'is', null)
        .execute();
      await sendReceipt(this.ctx, this.calls, transactionId, 'merchant');
    }
    const message = typeof answer?.message === 'string' ? answer.message : status === 'approved' ? 'The payment was approved.' : 'The gateway did not approve the payment.';
    return { status, message, transaction_id: transactionId, amount, currency: invoice.currency };
  }
}
