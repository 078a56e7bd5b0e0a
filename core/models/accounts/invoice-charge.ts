import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { ModelCalls } from '../../kernel/model-calls';
import { int, list } from '../../kernel/parameter';
import { int as id, record, string as text } from '../../kernel/shape';
import { is } from '../../kernel/input-rules';
import { TallyError } from '../../kernel/tally-error';
import { MAX_INVOICES_AT_ONCE } from '../../payments/payable-invoices';
import { chargeStoredAccount } from '../../payments/charge-stored-account';

const CHARGED = record({
  status: text({ enum: ['approved', 'declined', 'error'] }),
  message: text(),
  transaction_id: id({ nullable: true, description: 'The payment recorded for an approved charge.' }),
  amount: text({ format: 'money', description: 'What was charged (the amount due).' }),
  currency: text(),
});

/**
 * Paying one open invoice (or several of one client) now with a stored account of its client
 * (chargeStoredAccount, the use case gateway_payments/payInvoice shares). The client area pays this
 * way; staff can over the API. A facet of the accounts model, so `accounts/chargeInvoice`.
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
    // The gateway talks to its processor: no transaction is held meanwhile (chargeStoredAccount).
    ownsTransactions: true,
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
    ownsTransactions: true,
    description: `Charge what is due on several open invoices of one client, in one currency (at most ${MAX_INVOICES_AT_ONCE}), to an active stored account of that client as one payment applied to each. Answers as chargeInvoice; 400 (invoice_ids) when an invoice is not the client's, closed, has nothing due or is in another currency, and nothing is charged.`,
  })
  chargeInvoices(accountId: number, invoiceIds: unknown[]) {
    if (!invoiceIds.every((id) => is.integer(id))) throw TallyError.invalid({ invoice_ids: { format: 'Give the invoices as a list of invoice ids.' } });
    return this.charge(accountId, invoiceIds.map(Number), 'invoice_ids');
  }

  private charge(accountId: number, invoiceIds: number[], field: string) {
    return chargeStoredAccount(this.ctx, this.calls, accountId, invoiceIds, field);
  }
}
