import { callable, ExtensionContext, object, shape, TallyError } from '../../../../host/extensions/kit';
import { clientIdOf } from '../../shared/client-id';
import { OFFSITE_BUILD_VARS, returnUrlOf } from '../../shared/offsite-build';
import { REFUND_VARS, REFUNDED } from '../../shared/refund-contract';
import { GATEWAY, isPayPalId, issueOf, paypalCall, paypalRefusal, paypalRequest } from './paypal-api';
import { clientOf, customId, invoiceItems, invoicesOfOrder, paypalValue, statusOf } from './paypal-orders';
import { verifiedEvent } from './paypal-webhook';

/** The capture notifications and the payment status each reports. */
const CAPTURE_EVENTS: Record<string, 'approved' | 'pending' | 'declined'> = {
  'PAYMENT.CAPTURE.COMPLETED': 'approved',
  'PAYMENT.CAPTURE.PENDING': 'pending',
  'PAYMENT.CAPTURE.DENIED': 'declined',
};

type Verdict = Record<string, unknown>;

/**
 * The non-merchant contract (docs/extensions.md, writing a gateway) for PayPal's REST API: an
 * Orders v2 order with the invoices as its items (`buildProcess`), captured when the payer comes
 * back (`success`) or when PayPal notifies CHECKOUT.ORDER.APPROVED, whichever is first, once (the
 * capture's PayPal-Request-Id is the order's); `validate` has PayPal verify each notification and
 * answers the capture it reports, its refusal, or its refunds; `refund` refunds a capture.
 */
export class Payments {
  constructor(private readonly ctx: ExtensionContext) {}

  @callable({
    verb: 'POST',
    params: [object('vars')],
    vars: OFFSITE_BUILD_VARS,
    returns: shape.record({ type: shape.string({ enum: ['redirect'] }), url: shape.string(), order_id: shape.string() }),
    description:
      'Create a PayPal order (intent CAPTURE) for vars[client_id] paying vars[amount] vars[currency], its items the invoices vars[invoices][i][invoice_id] with [amount], returning to vars[return_url]. Answers { type: redirect, url (where the payer approves it), order_id }.',
  })
  async buildProcess(vars: Record<string, any>) {
    const currency = String(vars.currency).toUpperCase();
    const value = paypalValue(vars.amount, currency);
    const back = returnUrlOf(vars);
    const clientId = clientIdOf(vars);
    const items = invoiceItems(vars.invoices, value, currency);
    const email = typeof vars.contact?.email === 'string' && /^[^\s@]{1,64}@[^\s@]{1,190}$/.test(vars.contact.email) ? vars.contact.email : undefined;
    const order = await paypalCall(this.ctx, 'POST', '/v2/checkout/orders', {
      intent: 'CAPTURE',
      purchase_units: [
        {
          reference_id: 'tally',
          custom_id: customId(this.ctx, clientId),
          description: items.length ? `Invoices ${items.map((i) => String(i.sku).slice(14)).join(', ')}`.slice(0, 127) : 'Payment',
          amount: { currency_code: currency, value, ...(items.length ? { breakdown: { item_total: { currency_code: currency, value } } } : {}) },
          ...(items.length ? { items } : {}),
        },
      ],
      payment_source: {
        paypal: { ...(email ? { email_address: email } : {}), experience_context: { return_url: back, cancel_url: back, user_action: 'PAY_NOW', shipping_preference: 'NO_SHIPPING' } },
      },
    });
    // With payment_source.paypal PayPal names the approve link `payer-action`; without, `approve`.
    const link = (Array.isArray(order.links) ? order.links : []).find((l: any) => l?.rel === 'payer-action' || l?.rel === 'approve');
    if (typeof link?.href !== 'string' || !/^https:\/\/\S+$/.test(link.href) || !isPayPalId(order.id))
      throw TallyError.invalid({ gateway: { refused: `The gateway "${GATEWAY}" answered an order without a link for the payer to approve it.` } });
    return { type: 'redirect', url: link.href, order_id: order.id };
  }

  @callable({
    verb: 'POST',
    params: [object('vars')],
    vars: shape.inputs({ token: shape.string({ required: true, description: 'The order id PayPal adds to the return URL as token.' }) }),
    returns: shape.record({
      status: shape.string({ enum: ['approved', 'pending', 'declined'] }),
      transaction_id: shape.string(),
      order_id: shape.string(),
      client_id: shape.int(),
      amount: shape.string(),
      currency: shape.string(),
      invoices: shape.any(),
    }),
    description:
      "The payer's return (vars[token], the order id PayPal adds to the return URL): the order is read from PayPal and, once approved, captured once; answers the capture as validate answers a payment ({ status, transaction_id (the capture's id), client_id, amount, currency, invoices }) with the order_id. Called by gateway_payments/completeOffsite, which records it; an order PayPal does not know, or not this company's, is a 400.",
  })
  async success(vars: Record<string, any>) {
    const orderId = vars.token;
    if (!isPayPalId(orderId)) throw TallyError.invalid({ token: { format: 'The token must be the PayPal order id from the return URL.' } });
    const order = await paypalCall(this.ctx, 'GET', `/v2/checkout/orders/${orderId}`);
    const customId = order.purchase_units?.[0]?.custom_id;
    if (clientOf(this.ctx, customId) === null) throw TallyError.invalid({ token: { exists: 'The order is not one this company opened.' } });
    if (order.status !== 'APPROVED' && order.status !== 'COMPLETED') throw TallyError.invalid({ token: { approved: 'The payer has not approved the order yet.' } });
    const captured = order.status === 'COMPLETED' ? order : await this.capture(orderId);
    const paid = captured ?? (await paypalCall(this.ctx, 'GET', `/v2/checkout/orders/${orderId}`));
    const capture = paid.purchase_units?.[0]?.payments?.captures?.[0];
    if (!capture) throw TallyError.invalid({ token: { approved: 'The payer has not approved the order yet.' } });
    // What PayPal answered, never what the return URL says: the capture as its notification will report it.
    const payment = await this.captureReported({ ...capture, custom_id: capture.custom_id ?? customId }, statusOf(capture.status), paid);
    if ('ignored' in payment) throw TallyError.invalid({ token: { exists: 'The order is not one this company opened.' } });
    return { ...payment, order_id: orderId };
  }

  @callable({
    verb: 'POST',
    params: [object('notification')],
    returns: shape.any(),
    description:
      "Judge a notification PayPal sent (notification[method], [headers], [body] raw, ...): verified with PayPal's verify-webhook-signature; { genuine: false, reason } unless PayPal answers SUCCESS, { ignored } for events that are not about this company's payments, else the payment (a capture completed, pending, denied, refunded in all so far; an approved order is captured first).",
  })
  async validate(notification: Record<string, any>) {
    const verified = await verifiedEvent(this.ctx, notification);
    if (!verified.genuine) return verified;
    const event = verified.event;
    const resource = (event.resource ?? {}) as Record<string, any>;
    const type = String(event.event_type);
    if (type in CAPTURE_EVENTS) return this.captureReported(resource, CAPTURE_EVENTS[type]);
    if (type === 'PAYMENT.CAPTURE.REFUNDED') return this.refundReported(resource);
    if (type === 'CHECKOUT.ORDER.APPROVED') return this.orderApproved(resource);
    return { ignored: `PayPal event ${type.slice(0, 100)} is not about a payment.` };
  }

  @callable({
    verb: 'POST',
    params: [object('vars')],
    vars: REFUND_VARS,
    returns: REFUNDED,
    description:
      "Refund vars[amount] vars[currency] of PayPal's capture vars[transaction_id] once per vars[idempotency_key] (PayPal-Request-Id). Answers { status, refund_id }; PayPal's refusal is a 400 naming the gateway.",
  })
  async refund(vars: Record<string, any>) {
    const currency = String(vars.currency).toUpperCase();
    if (!isPayPalId(vars.transaction_id)) throw TallyError.invalid({ transaction_id: { format: "The transaction_id must be PayPal's capture id." } });
    const refund = await paypalCall(
      this.ctx,
      'POST',
      `/v2/payments/captures/${vars.transaction_id}/refund`,
      { amount: { currency_code: currency, value: paypalValue(vars.amount, currency) } },
      String(vars.idempotency_key),
    );
    if ((refund.status !== 'COMPLETED' && refund.status !== 'PENDING') || !isPayPalId(refund.id))
      throw TallyError.invalid({ gateway: { refused: `The gateway "${GATEWAY}" refused the refund (${String(refund.status_details?.reason ?? refund.status).slice(0, 100)}).` } });
    return { status: refund.status === 'COMPLETED' ? 'approved' : 'pending', refund_id: refund.id };
  }

  /** Captures an approved order, once whoever asks (PayPal-Request-Id is the order's); null when it was captured already without that id. */
  private async capture(orderId: string): Promise<Record<string, any> | null> {
    const answer = await paypalRequest(this.ctx, 'POST', `/v2/checkout/orders/${orderId}/capture`, {}, `tally-capture-${orderId}`);
    if (answer.status >= 200 && answer.status < 300 && answer.body) return answer.body;
    if (issueOf(answer) === 'ORDER_ALREADY_CAPTURED') return null;
    throw paypalRefusal(answer);
  }

  /** A capture PayPal reports: whose it is by its custom_id, the invoices by its order's items. */
  private async captureReported(capture: Record<string, any>, status: 'approved' | 'pending' | 'declined', order?: Record<string, any>): Promise<Verdict> {
    const clientId = clientOf(this.ctx, capture.custom_id);
    if (clientId === null) return { ignored: 'The capture is not of an order this company opened.' };
    if (!isPayPalId(capture.id)) return { ignored: 'The capture has no id.' };
    const orderId = capture.supplementary_data?.related_ids?.order_id;
    const paid = order ?? (isPayPalId(orderId) ? await paypalCall(this.ctx, 'GET', `/v2/checkout/orders/${orderId}`) : null);
    return {
      client_id: clientId,
      amount: capture.amount?.value,
      currency: capture.amount?.currency_code,
      status,
      transaction_id: capture.id,
      invoices: invoicesOfOrder(paid),
    };
  }

  /** A refund PayPal reports: the capture it refunds (its `up` link), and what has been refunded of it in all. */
  private async refundReported(refund: Record<string, any>): Promise<Verdict> {
    const up = (Array.isArray(refund.links) ? refund.links : []).find((l: any) => l?.rel === 'up');
    const captureId = /\/v2\/payments\/captures\/([^/?#]+)$/.exec(String(up?.href ?? ''))?.[1];
    const total = refund.seller_payable_breakdown?.total_refunded_amount;
    if (!isPayPalId(captureId) || typeof total?.value !== 'string') return { ignored: 'The refund names no capture, or not what has been refunded of it in all.' };
    const capture = await paypalCall(this.ctx, 'GET', `/v2/payments/captures/${captureId}`);
    const clientId = clientOf(this.ctx, capture.custom_id);
    if (clientId === null) return { ignored: 'The refunded capture is not of an order this company opened.' };
    return { client_id: clientId, amount: total.value, currency: total.currency_code, status: 'refunded', transaction_id: captureId };
  }

  /** The payer approved an order and never came back: capture it now, and answer the capture. */
  private async orderApproved(order: Record<string, any>): Promise<Verdict> {
    if (clientOf(this.ctx, order.purchase_units?.[0]?.custom_id) === null) return { ignored: 'The order is not one this company opened.' };
    if (!isPayPalId(order.id)) return { ignored: 'The order has no id.' };
    const captured = await this.capture(order.id);
    const capture = captured?.purchase_units?.[0]?.payments?.captures?.[0];
    if (!capture) return { ignored: "The order was captured already; the capture's own notification records it." };
    return this.captureReported({ ...capture, custom_id: capture.custom_id ?? order.purchase_units[0].custom_id }, statusOf(capture.status), order);
  }
}
