import { CallContext } from '../../kernel/call-context';
import { ModelCalls } from '../../kernel/model-calls';
import { ServiceRow } from '../../billing/service-store';
import { changePricing, requireQuote } from './package-change';
import { queueChange, queuesChanges, refuseWhilePending } from './queued-change';
import { optionPricesFor, readOptionEdit, replaceOptions } from './service-option-edit';

type OptionEdit = Awaited<ReturnType<typeof readOptionEdit>>;

/**
 * services/edit's change of pricing (vars[pricing_id]) or options (configoptions). A service in
 * use changes at once, prorated — unless the company queues changes (`queue_service_changes`) and
 * this one costs money: then the prorated difference is invoiced and the change waits for that
 * invoice to be paid (queued-change.ts), the service left as it is. A change that credits or costs
 * nothing applies at once either way, as the reference applies it. A pending service's options are
 * billed by its first invoice.
 */
export async function editPricing(ctx: CallContext, calls: ModelCalls, service: ServiceRow, pricingId: number | undefined, options: OptionEdit, now: string): Promise<void> {
  const moving = pricingId !== undefined && pricingId !== service.pricing_id;
  // Options read (configoptions given, or the service's kept on a move) and the pricing they are billed at.
  const edit = 'billed' in options ? options : null;
  if (!moving && !edit) return;
  await refuseWhilePending(ctx, service.id, moving ? 'pricing_id' : 'configoptions');
  const inUse = ['active', 'suspended'].includes(service.status);
  if (inUse && edit && (await queuesChanges(ctx))) {
    const target = moving ? pricingId : service.pricing_id;
    const prices = await optionPricesFor(ctx.db, service, edit.choices, edit.billed);
    const quote = await requireQuote(ctx, service, target, now, prices);
    if (quote.net.gt(0)) {
      await queueChange(ctx, calls, service, quote, edit.choices, now);
      return;
    }
  }
  const optionPrices = edit ? await replaceOptions(ctx.db, service, edit.choices, edit.billed) : undefined;
  if (moving) await changePricing(ctx, calls, service, pricingId, now, optionPrices);
  else if (optionPrices && inUse && !optionPrices.before.eq(optionPrices.after)) await changePricing(ctx, calls, service, service.pricing_id, now, optionPrices);
}
