import { callable, ExtensionContext, object, shape, string, TallyError } from '../../../../host/extensions/kit';
import { clientIdOf } from '../../shared/client-id';
import { REFUND_DECLARATION, refundPayment } from '../../shared/stripe/stripe-refund';
import { capturePayment, voidPayment } from './authorisations';
import { CAPTURE_VARS, CHARGE_VARS, CHARGED, SETTLED, STORE_VARS, STORED, VOID_VARS } from './fields';
import { GATEWAY } from './gateway-name';
import { judgeNotification } from './notifications';
import { chargeSavedCard } from './payment-intents';
import { customerOf, forgetCard, saveCard } from './saved-cards';

/**
 * The merchant contract (docs/extensions.md, writing a gateway) for cards saved with Stripe:
 * `store` attaches a PaymentMethod tokenised in the payer's browser to the client's Customer,
 * `charge` charges it off-session (processStoredCc), `capture` and `void` settle an authorisation,
 * `refund` refunds through Stripe, `validate` judges Stripe's signed notifications.
 */
export class Tokens {
  constructor(private readonly ctx: ExtensionContext) {}

  @callable({
    verb: 'POST',
    params: [object('vars')],
    vars: STORE_VARS,
    returns: STORED,
    description:
      "Save a card for vars[client_id]: vars[token] is the PaymentMethod id (pm_...) Stripe's client-side flow answered; the card number never reaches Tally. Answers { reference_id (the PaymentMethod id), last4, type, expiration (yyyymm) }.",
  })
  store(vars: Record<string, any>) {
    if (vars.card_number !== undefined)
      throw TallyError.invalid({ number: { tokenised: `The gateway "${GATEWAY}" never takes a card number: tokenise the card with Stripe.js and give its PaymentMethod id as vars[token].` } });
    return saveCard(this.ctx, clientIdOf(vars), vars.token);
  }

  @callable({
    verb: 'POST',
    params: [object('vars')],
    vars: CHARGE_VARS,
    returns: CHARGED,
    description:
      'Charge a saved card now, off-session: vars[reference_id], vars[client_id], vars[amount], vars[currency], optional vars[invoices][i][invoice_id], vars[capture] (false: authorise only). Answers { status (approved, pending, declined), reason, message, transaction_id, payment_intent }; a decline is recorded as a declined transaction.',
  })
  charge(vars: Record<string, any>) {
    return chargeSavedCard(this.ctx, clientIdOf(vars), vars);
  }

  @callable({
    verb: 'POST',
    params: [object('vars')],
    vars: CAPTURE_VARS,
    returns: SETTLED,
    description: 'Capture an authorised payment (vars[transaction_id], the PaymentIntent), wholly or vars[amount] of it.',
  })
  capture(vars: Record<string, any>) {
    return capturePayment(this.ctx, vars);
  }

  @callable({
    verb: 'POST',
    params: [object('vars')],
    vars: VOID_VARS,
    returns: SETTLED,
    description: 'Void an authorised payment (vars[transaction_id], the PaymentIntent): the hold on the card is released.',
  })
  void(vars: Record<string, any>) {
    return voidPayment(this.ctx, vars);
  }

  @callable(REFUND_DECLARATION)
  refund(vars: Record<string, any>) {
    return refundPayment(this.ctx, GATEWAY, vars);
  }

  @callable({
    verb: 'POST',
    params: [object('notification')],
    returns: shape.any(),
    description:
      "Judge a notification Stripe sent (notification[method], [headers], [body] raw, [query], [form], [received_at]): { genuine: false, reason } unless its Stripe-Signature verifies within the tolerance, { ignored } for events that are not about this company's charges, else the payment.",
  })
  validate(notification: Record<string, any>) {
    return judgeNotification(this.ctx, notification);
  }

  @callable({
    verb: 'GET',
    params: [object('vars')],
    returns: shape.orNull(shape.string()),
    description: "The Stripe Customer (cus_...) vars[client_id]'s cards are attached to, or null before the client saved one (accounts/getClientReferenceId).",
  })
  async clientReference(vars: Record<string, any>) {
    return (await customerOf(this.ctx, clientIdOf(vars))) ?? null;
  }

  @callable({ verb: 'POST', params: [string('reference_id')], returns: shape.nothing(), description: 'Forget a saved card: it is detached from its Customer at Stripe.' })
  async remove(referenceId: string) {
    await forgetCard(this.ctx, referenceId);
    return null;
  }
}
