import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { TallyError } from '../kernel/tally-error';

/**
 * Calls to a merchant gateway's `tokens` model on an account's behalf, and what their answers must
 * hold before anything is kept. A gateway is extension code talking to a processor: it may throw
 * (the processor unreachable, its deadline passed) or answer nothing, text, or a token that is not
 * text or too long for the column. Those were a 500, or an account kept with the token "undefined"
 * that charges nothing. Its own 400 (a card number it refuses) is answered as it is; anything else
 * is a 400 naming the gateway, without its message, which may quote what it was sent.
 */
export async function callGateway(ctx: CallContext, calls: ModelCalls, gateway: string, method: string, params: Record<string, unknown>, what: string): Promise<unknown> {
  try {
    return await calls.call(ctx, `${gateway}.tokens`, method, params);
  } catch (error) {
    if (error instanceof TallyError && error.status === 400) throw error;
    throw gatewayFailed(gateway, `could not ${what}`);
  }
}

/** callGateway for a method whose answer is a record. */
export async function askGateway(ctx: CallContext, calls: ModelCalls, gateway: string, method: string, params: Record<string, unknown>, what: string): Promise<Record<string, unknown>> {
  const answer = await callGateway(ctx, calls, gateway, method, params, what);
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) throw gatewayFailed(gateway, `answered the request to ${what} with something other than a record`);
  return answer as Record<string, unknown>;
}

/** What `store` or `storeAch` answered, checked: the token, the last four digits, and the expiry when given. */
export function storedAccount(gateway: string, answer: Record<string, unknown>) {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : null);
  const reference = text(answer.reference_id);
  if (!reference || reference.length > 255) throw gatewayFailed(gateway, 'answered without a token Tally can keep (text of at most 255 characters)');
  const last4 = text(answer.last4)?.slice(-4) ?? '';
  if (!/^\d{4}$/.test(last4)) throw gatewayFailed(gateway, 'answered without the last four digits of the account');
  const expiration = answer.expiration === undefined || answer.expiration === null ? null : (text(answer.expiration) ?? '');
  if (expiration !== null && !/^\d{6}$/.test(expiration)) throw gatewayFailed(gateway, 'answered an expiry that is not yyyymm');
  return { reference_id: reference, last4, type: typeof answer.type === 'string' ? answer.type : null, expiration, verification: answer.verification };
}

function gatewayFailed(gateway: string, what: string): TallyError {
  return TallyError.invalid({ gateway: { failed: `The gateway "${gateway}" ${what}; nothing was kept.` } });
}
