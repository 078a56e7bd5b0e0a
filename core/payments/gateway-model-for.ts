import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';

/**
 * The model of an installed, enabled gateway that offers `method` (refund, capture, void): a
 * non-merchant gateway's `payments` or a merchant gateway's `tokens`, the two contracts' models
 * (docs/extensions.md, writing a gateway); null when it offers none.
 */
export async function gatewayModelFor(ctx: CallContext, calls: ModelCalls, gateway: string | null, method: string): Promise<string | null> {
  if (!gateway) return null;
  for (const model of [`${gateway}.payments`, `${gateway}.tokens`]) if (await calls.available(ctx, model, method)) return model;
  return null;
}
