import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { model } from '../kernel/model';
import { ModelCalls } from '../kernel/model-calls';
import { int, string } from '../kernel/parameter';
import { refundThroughGateway } from '../payments/refund-through-gateway';
import { TRANSACTION } from './transactions.fields';

/**
 * Money moved through a transaction's gateway (docs/payments.md): a refund reaches the processor,
 * and the transaction and its invoices follow only when the processor agrees.
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
}
