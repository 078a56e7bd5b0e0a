import { ExtensionContext, TallyError } from '../../../../host/extensions/kit';
import { stripeCall } from './stripe-api';
import { openedBy } from './stripe-event';
import { stripeId } from './stripe-ids';

/**
 * The PaymentIntent `value` names (a payment's `transaction_id`), read from Stripe, when this
 * company made it; else the 400 Stripe would answer for an unknown one. Companies (or
 * installations) may share one Stripe account, and Stripe would capture, cancel or refund any
 * PaymentIntent of it: so whose it is is read before anything is changed, from the `tally_company_id`
 * metadata both Stripe gateways put on it. A PaymentIntent of a Checkout Session opened before
 * Sessions carried it on their PaymentIntents is known by its Session's metadata instead.
 */
export async function ownPaymentIntent(ctx: ExtensionContext, gateway: string, value: unknown): Promise<Record<string, any>> {
  const id = stripeId(value, 'pi', 'transaction_id');
  const intent = await stripeCall(ctx, gateway, `/v1/payment_intents/${id}`, null);
  if (openedBy(ctx, intent)) return intent;
  if (intent.metadata?.tally_company_id === undefined) {
    const sessions = await stripeCall(ctx, gateway, `/v1/checkout/sessions?payment_intent=${id}&limit=1`, null);
    if (Array.isArray(sessions.data) && sessions.data.some((session: Record<string, any>) => openedBy(ctx, session))) return intent;
  }
  throw TallyError.invalid({ transaction_id: { exists: 'No payment of this company has this id.' } });
}
