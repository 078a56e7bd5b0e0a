import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { model } from '../kernel/model';
import { ModelCalls } from '../kernel/model-calls';
import { int, list, object, string } from '../kernel/parameter';
import { refundThroughGateway } from '../payments/refund-through-gateway';
import { payInvoiceNow } from '../payments/pay-invoice-now';
import { int as count, listOf, orNull, record, string as text } from '../kernel/shape';
import { is } from '../kernel/input-rules';
import { TallyError } from '../kernel/tally-error';
import { offsiteGateways, startOffsitePayment } from '../payments/offsite-checkout';
import { completeOffsitePayment } from '../payments/offsite-return';
import { settleAuthorisation } from '../payments/settle-authorisation';
import { TRANSACTION } from './transactions.fields';
import { ExtensionCatalog } from '../kernel/extension-catalog';
import { cardFormOf } from '../payments/card-form';

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
    private readonly catalog: ExtensionCatalog,
  ) {}

  @callable({
    description:
      "The card form a client's browser draws for the company's enabled merchant gateway that tokenises cards there (its manifest's card_form, e.g. stripe_cards with Stripe.js), so the card number never reaches Tally: { gateway, library, script, publishable_key, script_origins, frame_origins, connect_origins }, or null when no gateway offers one (or its publishable key is not set). The token it answers is given to accounts/addCc as vars[token].",
    verb: 'GET',
    params: [],
    returns: orNull(
      record({
        gateway: text(),
        library: text(),
        script: text(),
        publishable_key: text(),
        script_origins: listOf(text()),
        frame_origins: listOf(text()),
        connect_origins: listOf(text()),
      }),
    ),
  })
  getCardForm() {
    return cardFormOf(this.ctx, this.calls, this.catalog);
  }

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
    // The gateway talks to its processor: no transaction is held meanwhile (chargeStoredAccount).
    ownsTransactions: true,
  })
  payInvoice(invoiceId: number, accountId: number) {
    return payInvoiceNow(this.ctx, this.calls, invoiceId, accountId);
  }

  @callable({
    description: "The company's enabled non-merchant gateways taking the currency that can send a payer off-site to pay (their payments model offers buildProcess): { gateway (its directory), name }.",
    verb: 'GET',
    params: [string('currency', { format: 'currency', example: 'USD' })],
    returns: listOf(record({ gateway: text(), name: text() })),
  })
  getOffsiteGateways(currency: string) {
    if (!/^[A-Za-z]{3}$/.test(currency)) throw TallyError.invalid({ currency: { format: 'The currency must be a three-letter code such as USD.' } });
    return offsiteGateways(this.ctx, this.calls, currency);
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
      "Open an off-site payment through a non-merchant gateway's buildProcess of everything due on open invoices of one client in one currency (invoice_ids, at most 25), returning the payer to return_url. Answers { type: redirect, url }: send the payer there. Nothing is recorded until the processor confirms the payment: by its signed notification, or on the payer's return (completeOffsite) (docs/payments.md).",
    verb: 'POST',
    params: [string('gateway', { example: 'stripe_checkout' }), list('invoice_ids'), string('return_url', { example: 'https://billing.example.com/client/payments/return' })],
    returns: record({ type: text({ enum: ['redirect'] }), url: text() }),
  })
  startOffsite(gateway: string, invoiceIds: unknown[], returnUrl: string) {
    if (!invoiceIds.every((id) => is.integer(id))) throw TallyError.invalid({ invoice_ids: { format: 'Give the invoices as a list of invoice ids.' } });
    return startOffsitePayment(this.ctx, this.calls, gateway, invoiceIds.map(Number), returnUrl);
  }

  @callable({
    description:
      "The payer's return from a non-merchant gateway's page (the return_url given to startOffsite): vars are the parameters the processor added to it (PayPal: token and PayerID), handed to the gateway's success, which asks the processor (PayPal: captures the approved order). A payment the processor confirmed is recorded at once, once per gateway transaction id whichever of the return and the processor's notification comes first; a made-up return records nothing. Answers { status, transaction_id }: pending with no transaction while the processor has not confirmed it, or for a gateway whose notification alone records (stripe_checkout).",
    verb: 'POST',
    params: [string('gateway', { example: 'paypal_checkout' }), object('vars', { default: {} })],
    returns: record({ status: text({ enum: ['approved', 'pending', 'declined', 'void', 'error'] }), transaction_id: count({ nullable: true }) }),
    // The gateway asks its processor before it answers: no transaction is held meanwhile (completeOffsitePayment).
    ownsTransactions: true,
  })
  completeOffsite(gateway: string, vars: Record<string, unknown>) {
    return completeOffsitePayment(this.ctx, this.calls, gateway, vars);
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
