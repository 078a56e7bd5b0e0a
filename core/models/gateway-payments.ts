import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { model } from '../kernel/model';
import { ModelCalls } from '../kernel/model-calls';
import { int, string } from '../kernel/parameter';
import { refundThroughGateway } from '../payments/refund-through-gateway';
import { payInvoiceNow } from '../payments/pay-invoice-now';
import { settleAuthorisation } from '../payments/settle-authorisation';
import { int as count, record, string as text } from '../kernel/shape';
import { TRANSACTION } from './transactions.fields';

/**
 * Money moved through a gateway now (docs/payments.md): an invoice charged to a stored account, a
 * refund that reaches the processor; the transaction and its invoices follow only when the
 * processor agrees.
 */
@model('gateway_payments')
export class GatewayPayments {
  constructor(
    private readonly ctx: CallContext,
    private readonly calls: ModelCalls,
  ) {}

  @callable({
    description:
      "Refund a transaction through the gateway that took it: wholly, or `amount` of it. The processor refunds first-hand (once, however often the same refund is asked: an Idempotency-Key), then the transaction's refunded amount, status and invoices follow as with transactions/refund. The processor's refusal is a 400 naming the gateway, with nothing changed. Answers the transaction.",
    verb: 'POST',
    params: [int('transaction_id'), string('amount', { default: null })],
    returns: TRANSACTION,
  })
  refund(transactionId: number, amount: string | null) {
    return refundThroughGateway(this.ctx, this.calls, transactionId, amount);
  }

  @callable({
    description:
      "Pay what is due on an open invoice now from one of its client's stored accounts (accounts/addCc, addAch), through the merchant gateway that stored it. Answers { status (approved, declined), message, transaction_id }: an approved charge is a transaction applied to the invoice; a decline changes nothing in Tally. Send an Idempotency-Key header so a retried request cannot charge twice.",
    verb: 'POST',
    params: [int('invoice_id'), int('account_id')],
    returns: record({ status: text({ enum: ['approved', 'declined'] }), message: text({ nullable: true }), transaction_id: count({ nullable: true }) }),
  })
  payInvoice(invoiceId: number, accountId: number) {
    return payInvoiceNow(this.ctx, this.calls, invoiceId, accountId);
  }

  @callable({
    description:
      "Capture a payment a merchant gateway only authorised (a pending transaction), wholly or `amount` of it, through that gateway: the transaction becomes approved for what was captured and pays the invoices it was charged for. The processor's refusal is a 400 naming the gateway, with nothing changed. Answers the transaction.",
    verb: 'POST',
    params: [int('transaction_id'), string('amount', { default: null })],
    returns: TRANSACTION,
  })
  capture(transactionId: number, amount: string | null) {
    return settleAuthorisation(this.ctx, this.calls, 'capture', transactionId, amount);
  }

  @callable({
    description:
      "Void a payment a merchant gateway only authorised (a pending transaction) through that gateway: the hold on the card is released and the transaction becomes void. An approved payment is refunded instead (refund). The processor's refusal is a 400 naming the gateway, with nothing changed. Answers the transaction.",
    verb: 'POST',
    params: [int('transaction_id')],
    returns: TRANSACTION,
  })
  void(transactionId: number) {
    return settleAuthorisation(this.ctx, this.calls, 'void', transactionId, null);
  }
}
