import { CallContext } from '../../kernel/call-context';
import { ModelCalls } from '../../kernel/model-calls';
import { TallyError } from '../../kernel/tally-error';
import { toStored } from '../../kernel/money';
import { OptionChoice, writeServiceOptions } from '../../billing/config-options';
import { companySettingValues } from '../../billing/billing-settings';
import { lockService, ServiceRow } from '../../billing/service-store';
import { emitServiceEvent } from '../../billing/service-event';
import { ChangeQuote, invoiceChange, movePricing, recordChangeInvoice } from './package-change';
import { QueuedChange } from '../../billing/queued-changes';

/** Whether the company queues changes that cost money until their invoice is paid (the `queue_service_changes` setting). */
export async function queuesChanges(ctx: CallContext): Promise<boolean> {
  return (await companySettingValues(ctx.db, ctx.companyId)).get('queue_service_changes') === 'true';
}

/**
 * A second change while one waits for its invoice would be overtaken by the first when it is paid:
 * refused with a 400 naming the field, until that invoice is paid or voided.
 */
export async function refuseWhilePending(ctx: CallContext, serviceId: number, field: string): Promise<void> {
  const pending = await ctx.db
    .selectFrom('service_changes')
    .select('invoice_id')
    .where('service_id', '=', serviceId)
    .where('company_id', '=', ctx.companyId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (pending) throw TallyError.invalid({ [field]: { pending: `This service has a change waiting for invoice ${pending.invoice_id} to be paid; pay or void that invoice before changing it again.` } });
}

/**
 * Invoices the change and keeps it pending, leaving the service as it is. Returns the invoice id.
 */
export async function queueChange(ctx: CallContext, calls: ModelCalls, service: ServiceRow, quote: ChangeQuote, options: readonly OptionChoice[] | null, now: string): Promise<number> {
  const invoiceId = await invoiceChange(ctx, calls, service, quote, now);
  const change: QueuedChange = {
    pricingId: quote.next.pricing_id,
    dateRenews: quote.dateRenews,
    // Paid in another currency than the service's, the unused time is credited in the service's own.
    credit: quote.refund.gt(0) ? toStored(quote.refund) : null,
    creditCurrency: quote.currency,
    options,
  };
  await ctx.db
    .insertInto('service_changes')
    .values({ company_id: ctx.companyId, service_id: service.id, invoice_id: invoiceId, status: 'pending', data: JSON.stringify(change), date_added: now, date_status: now })
    .execute();
  return invoiceId;
}

/**
 * Settles a pending change, once: cancelled when its invoice was voided (or its service canceled
 * since), applied when its invoice is paid — the service moved as services/edit would have moved
 * it: the module told of a new package, the options stored, the invoice kept as the service's
 * period, Services.edit emitted. The change is claimed first, under the service's lock: a
 * concurrent run finds it no longer pending and does nothing. False when there was nothing to do
 * (no such pending change, or its invoice still open).
 */
export async function processChange(ctx: CallContext, calls: ModelCalls, changeId: number, now: string): Promise<boolean> {
  const change = await ctx.db
    .selectFrom('service_changes')
    .innerJoin('invoices', 'invoices.id', 'service_changes.invoice_id')
    .select(['service_changes.service_id', 'service_changes.invoice_id', 'service_changes.data', 'invoices.status as invoice_status', 'invoices.date_closed'])
    .where('service_changes.id', '=', changeId)
    .where('service_changes.company_id', '=', ctx.companyId)
    .where('service_changes.status', '=', 'pending')
    .executeTakeFirst();
  if (!change) return false;
  if (change.invoice_status === 'void') return settle(ctx, changeId, 'canceled', now);
  if (change.date_closed === null || !['active', 'proforma'].includes(change.invoice_status)) return false;
  const service = await lockService(ctx.db, ctx.companyId, change.service_id);
  const outcome = service.status === 'canceled' ? 'canceled' : 'completed';
  const settled = await settle(ctx, changeId, outcome, now);
  if (!settled || outcome === 'canceled') return settled;
  const data = JSON.parse(change.data) as QueuedChange;
  if (data.options) await writeServiceOptions(ctx.db, service.id, data.options);
  await movePricing(ctx, calls, service, data, now);
  await recordChangeInvoice(ctx, service.id, change.invoice_id, data.dateRenews, now);
  await emitServiceEvent(ctx, 'Services.edit', service.id);
  return true;
}

/** Moves a pending change on; false when another run got there first. */
async function settle(ctx: CallContext, changeId: number, status: 'completed' | 'canceled', now: string): Promise<boolean> {
  const result = await ctx.db
    .updateTable('service_changes')
    .set({ status, date_status: now })
    .where('id', '=', changeId)
    .where('company_id', '=', ctx.companyId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
