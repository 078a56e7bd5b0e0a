import { ExtensionContext, TallyError } from '../../../../host/extensions/kit';
import { stripeRefusal, stripeRequest } from '../../shared/stripe/stripe-api';
import { minorUnitsOf } from '../../shared/amounts/minor-units';
import { invoicesMetadata } from '../../shared/stripe/stripe-event';
import { GATEWAY } from './gateway-name';
import { savedCard } from './saved-cards';

/** A PaymentIntent's status as the transaction's: money taken, money held to capture, or not yet known. */
const INTENT_STATUS: Record<string, 'approved' | 'pending'> = { succeeded: 'approved', requires_capture: 'pending', processing: 'pending' };

/**
 * Charges a saved card now, the payer absent (the reference's processStoredCc): one PaymentIntent,
 * confirmed off-session, captured at once unless vars[capture] is false. What Stripe answers is
 * recorded as a transaction named by the PaymentIntent's id, so Stripe's later notification about
 * the same PaymentIntent updates it instead of recording it again: approved (applied to the
 * invoices), pending while authorised or processing, or declined (Stripe's card_error, recorded as
 * the reference records a declined charge, which emits Payments.refused). Any other refusal (a bad
 * key, an invalid request) is a 400 naming the gateway and records nothing.
 */
export async function chargeSavedCard(ctx: ExtensionContext, clientId: number, vars: Record<string, any>) {
  const card = await savedCard(ctx, clientId, vars.reference_id);
  const currency = String(vars.currency ?? '').toUpperCase();
  const amount = minorUnitsOf(vars.amount, currency);
  // Checked before Stripe takes the money: a payment in a currency the company does not bill in could not be recorded after.
  if (!/^[A-Z]{3}$/.test(currency) || !(await ctx.models.currencies.get({ currency_code: currency, company_id: ctx.companyId })))
    throw TallyError.invalid({ currency: { exists: "The currency is not one of the company's currencies (see currencies/getList)." } });
  const capture = vars.capture !== false && vars.capture !== 'false' && vars.capture !== '0';
  const answer = await stripeRequest(
    ctx,
    '/v1/payment_intents',
    {
      amount,
      currency: currency.toLowerCase(),
      customer: card.customer,
      payment_method: card.payment_method,
      off_session: 'true',
      confirm: 'true',
      capture_method: capture ? 'automatic' : 'manual',
      metadata: { tally_company_id: ctx.companyId, client_id: clientId, invoices: invoicesMetadata(vars.invoices) },
    },
    idempotencyKeyOf(vars),
  );
  const base = { client_id: clientId, amount: vars.amount, currency, type: 'cc', gateway: GATEWAY };
  const error = answer.body?.error;
  if (answer.status === 402 && error?.type === 'card_error') {
    const intent = typeof error.payment_intent?.id === 'string' ? error.payment_intent.id : null;
    const message = typeof error.message === 'string' ? error.message.slice(0, 255) : 'The card was declined.';
    await ctx.models.transactions.add({ vars: { ...base, status: 'declined', message, ...(intent ? { transaction_id: intent } : {}) } });
    return { status: 'declined', reason: String(error.decline_code ?? error.code ?? 'card_declined').slice(0, 64), message, transaction_id: null, payment_intent: intent, reference: null };
  }
  const intent = answer.body;
  const status = INTENT_STATUS[String(intent?.status)];
  if (answer.status < 200 || answer.status >= 300 || typeof intent?.id !== 'string' || !status) throw stripeRefusal(GATEWAY, answer);
  const message = status === 'approved' ? 'Approved.' : 'Authorised: capture or void it.';
  let transactionId: number;
  try {
    transactionId = (await ctx.models.transactions.add({
      vars: { ...base, status, transaction_id: intent.id, ...(status === 'approved' && vars.invoices !== undefined ? { invoices: vars.invoices } : {}) },
    })) as number;
  } catch (error) {
    // Stripe's notification about this PaymentIntent reached Tally, and was recorded, before this
    // answer: the payment is that one. The core adopts it by the PaymentIntent's id (`reference`).
    if (status === 'approved' && alreadyRecorded(error)) return { status, reason: null, message, transaction_id: null, payment_intent: intent.id, reference: intent.id };
    throw error;
  }
  return { status, reason: null, message, transaction_id: transactionId, payment_intent: intent.id, reference: null };
}

/** transactions.add refusing the PaymentIntent's id as one the gateway has already recorded a transaction under. */
function alreadyRecorded(error: unknown): boolean {
  const errors = error instanceof TallyError ? (error.errors as Record<string, Record<string, string>> | undefined) : undefined;
  return errors?.reference?.unique !== undefined || errors?.transaction_id?.unique !== undefined;
}

/**
 * Stripe's Idempotency-Key for the charge: the core's attempt's (vars[idempotency_key]), so the
 * same attempt asked again is answered the PaymentIntent already made and the card is charged once.
 * Without one (a direct call) each call is a charge of its own.
 */
function idempotencyKeyOf(vars: Record<string, any>): string | undefined {
  const key = vars.idempotency_key;
  return typeof key === 'string' && /^[\x21-\x7e]{1,255}$/.test(key) ? key : undefined;
}
