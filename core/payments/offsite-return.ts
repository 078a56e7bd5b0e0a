import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { inShortTransaction } from '../kernel/short-transaction';
import { TallyError } from '../kernel/tally-error';
import { NonsenseAnswer, readVerdict } from './gateway-verdict';
import { recordReportedPayment } from './record-reported-payment';
import { gatewayFailed } from './gateway-failed';

/** What the payer's return came to: the payment's status at the processor, and its transaction once recorded. */
export interface ReturnOutcome {
  readonly status: 'approved' | 'pending' | 'declined' | 'void' | 'error';
  readonly transaction_id: number | null;
}

const SUCCESS = 'success';
/** The return URL's parameters handed on: a processor adds a few short ones (PayPal: token, PayerID; Stripe: session_id). */
const MAX_PARAMS = 20;
const MAX_LENGTH = 2048;

/**
 * The payer's return from a non-merchant gateway's page: the gateway's `success` is given what the
 * processor added to the return URL and, having asked the processor (PayPal: it captures the
 * approved order), answers the payment as `validate` answers one. Only a payment the processor
 * confirmed is recorded: `success` reads it from the processor by the id returned, so a return with
 * a made-up id records nothing. It is recorded as a notification's would be, once per gateway
 * transaction id whichever of the return and the processor's notification comes first. `success`
 * runs with no transaction held (the caller owns its transactions); the payment is recorded in one
 * short transaction. A client area caller completes only its own client's payments.
 *
 * A gateway without `success` (Stripe Checkout: its notification follows within seconds) answers
 * pending and records nothing.
 */
export async function completeOffsitePayment(ctx: CallContext, calls: ModelCalls, gateway: string, returned: Record<string, unknown>): Promise<ReturnOutcome> {
  const model = `${gateway}.payments`;
  if (!(await calls.available(ctx, model))) throw TallyError.invalid({ gateway: { exists: `The gateway "${gateway.slice(0, 64)}" is not installed and enabled.` } });
  if (!(await calls.available(ctx, model, SUCCESS))) return { status: 'pending', transaction_id: null };
  let answer: unknown;
  try {
    answer = await calls.call(ctx, model, SUCCESS, { vars: returnParameters(returned) });
  } catch (error) {
    if (error instanceof TallyError && error.status === 400) throw error;
    throw gatewayFailed(gateway, 'failed while completing the payment');
  }
  let verdict;
  try {
    verdict = readVerdict(answer);
  } catch (error) {
    if (error instanceof NonsenseAnswer) throw gatewayFailed(gateway, error.message.replace(/^validate/, 'success'));
    throw error;
  }
  if (verdict.kind !== 'payment') return { status: 'pending', transaction_id: null };
  const payment = verdict.payment;
  if (payment.status === 'refunded') throw gatewayFailed(gateway, "answered a refund for a payer's return");
  const client = ctx.origin.client;
  // Genuine, but another client's: its own return or the processor's notification records it.
  if (client && client.clientId !== payment.client_id) throw TallyError.invalid({ vars: { exists: 'This payment is not one of yours.' } });
  const done = await inShortTransaction(ctx, (tx) => recordReportedPayment(tx, calls, { gateway, kind: 'nonmerchant', notificationId: null }, payment));
  return { status: payment.status, transaction_id: done.transactionId };
}

/** The return URL's parameters as text, bounded; anything else is not what a processor adds. */
function returnParameters(returned: Record<string, unknown>): Record<string, string> {
  const entries = Object.entries(returned ?? {}).filter(([, value]) => typeof value === 'string' && value.length <= MAX_LENGTH);
  if (entries.length > MAX_PARAMS) throw TallyError.invalid({ vars: { length: `A return carries at most ${MAX_PARAMS} parameters.` } });
  return Object.fromEntries(entries) as Record<string, string>;
}
