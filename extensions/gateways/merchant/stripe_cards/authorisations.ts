import { ExtensionContext, TallyError } from '../../../../host/extensions/kit';
import { stripeCall } from '../../shared/stripe/stripe-api';
import { fromMinorUnits, minorUnitsOf } from '../../shared/amounts/minor-units';
import { invoicesOf, openedBy } from '../../shared/stripe/stripe-event';
import { GATEWAY } from './gateway-name';
import { ownPaymentIntent } from '../../shared/stripe/stripe-ownership';

/**
 * What an authorised PaymentIntent became, for the core to bring its transaction along: approved
 * for the amount captured (with the invoices it was charged for), or void. A PaymentIntent this
 * company did not make is refused as Stripe would refuse an unknown one, so one company's
 * credentials cannot capture or cancel another's payment through a shared Stripe account.
 */
function settled(ctx: ExtensionContext, intent: Record<string, any>, status: 'approved' | 'void') {
  if (!openedBy(ctx, intent)) throw TallyError.invalid({ transaction_id: { exists: 'No payment of this company has this id.' } });
  const currency = String(intent.currency ?? '').toUpperCase();
  return {
    status,
    amount: fromMinorUnits(Number(status === 'approved' ? intent.amount_received : intent.amount), currency),
    currency,
    invoices: invoicesOf(intent.metadata?.invoices),
  };
}

/** Captures an authorised PaymentIntent (POST /v1/payment_intents/:id/capture), wholly or vars[amount] of it. */
export async function capturePayment(ctx: ExtensionContext, vars: Record<string, any>) {
  const intent = await ownPaymentIntent(ctx, GATEWAY, vars.transaction_id);
  const id = String(intent.id);
  const part = vars.amount === undefined || vars.amount === null || vars.amount === '' ? {} : { amount_to_capture: minorUnitsOf(vars.amount, String(intent.currency).toUpperCase()) };
  return settled(ctx, await stripeCall(ctx, GATEWAY, `/v1/payment_intents/${id}/capture`, part, `tally-${ctx.companyId}-capture-${id}`), 'approved');
}

/** Cancels an authorised PaymentIntent (POST /v1/payment_intents/:id/cancel): the hold on the card is released. */
export async function voidPayment(ctx: ExtensionContext, vars: Record<string, any>) {
  const id = String((await ownPaymentIntent(ctx, GATEWAY, vars.transaction_id)).id);
  return settled(ctx, await stripeCall(ctx, GATEWAY, `/v1/payment_intents/${id}/cancel`, { cancellation_reason: 'requested_by_customer' }, `tally-${ctx.companyId}-void-${id}`), 'void');
}
