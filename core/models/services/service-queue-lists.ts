import { billingProfiles } from '../../billing/billing-profiles';
import { BillingSettings } from '../../billing/billing-settings';
import { shiftDays } from '../../billing/run-clock';
import { Tx } from '../../db/schema';
import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { int } from '../../kernel/parameter';
import { int as count } from '../../kernel/shape';
import { formatUtc } from '../../kernel/timestamps';
import { pageOffset } from '../../billing/values';
import { SERVICES } from '../services.fields';
import { paidPendingQuery, pendingCancelationQuery, pendingSuspensionQuery, pendingUnsuspensionQuery, renewablePaidQuery, renewingQuery } from '../../billing/service-queues';
import { presentServices, serviceQuery, ServiceRow } from '../../billing/service-store';

import { PAGE_SIZE } from '../../kernel/paging';

type Queue = { execute(): Promise<ServiceRow[]> } | null;

/** Active or suspended services with a renewal invoice still unpaid. */
function renewableUnpaidQuery(db: Tx, companyId: number) {
  return serviceQuery(db, companyId)
    .where('services.status', 'in', ['active', 'suspended'])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('service_invoices')
          .innerJoin('invoices', 'invoices.id', 'service_invoices.invoice_id')
          .select('service_invoices.service_id')
          .whereRef('service_invoices.service_id', '=', 'services.id')
          .where('service_invoices.kind', '=', 'renew')
          .where('invoices.status', 'in', ['active', 'proforma'])
          .where('invoices.date_closed', 'is', null),
      ),
    );
}

/**
 * What the next billing run will do, as the reference lists it: each queue as getAll…, and the
 * reference's page (25) and count of it. Queues that depend on billing settings are asked with
 * each client's own (client > group > company), as the run asks them. A facet of the services
 * model (services.ts lists it), so these are `services/...` methods.
 */
@facet('services')
export class ServiceQueueLists {
  constructor(private readonly ctx: CallContext) {}

  private readonly queues: Record<string, (settings: BillingSettings, now: string) => Queue> = {
    renewing: (s, now) => renewingQuery(this.ctx.db, this.ctx.companyId, shiftDays(now, s.invoiceDaysBeforeRenewal, this.ctx.timezone), s.invoiceSuspendedServices),
    paidPending: () => paidPendingQuery(this.ctx.db, this.ctx.companyId),
    renewablePaid: () => renewablePaidQuery(this.ctx.db, this.ctx.companyId) as unknown as Queue,
    renewableUnpaid: () => renewableUnpaidQuery(this.ctx.db, this.ctx.companyId),
    pendingSuspension: (s, now) => (s.suspendDaysAfterDue === null ? null : pendingSuspensionQuery(this.ctx.db, this.ctx.companyId, shiftDays(now, -s.suspendDaysAfterDue, this.ctx.timezone))),
    pendingUnsuspension: (s, now) => pendingUnsuspensionQuery(this.ctx.db, this.ctx.companyId, shiftDays(now, -(s.suspendDaysAfterDue ?? 0), this.ctx.timezone)),
    pendingCancelation: (_s, now) => pendingCancelationQuery(this.ctx.db, this.ctx.companyId, now),
  };

  /** Queues whose answer does not depend on billing settings are asked once. */
  private static readonly SETTING_FREE = new Set(['paidPending', 'renewablePaid', 'renewableUnpaid', 'pendingCancelation']);

  @callable({ verb: 'GET', returns: SERVICES, description: 'Services the next billing run invoices (renewing within their invoice days).' })
  getAllRenewing() {
    return this.queueAll('renewing');
  }

  @callable({ verb: 'GET', returns: SERVICES, description: 'Pending services whose first invoice is paid (the run provisions them).' })
  getAllPaidPending() {
    return this.queueAll('paidPending');
  }

  @callable({ verb: 'GET', params: [int('page', { default: 1 })], returns: SERVICES, description: 'One page (25) of getAllPaidPending.' })
  getPendingPaidList(page: number) {
    return this.queuePage('paidPending', page);
  }

  @callable({ verb: 'GET', returns: count(), description: 'How many services getAllPaidPending lists.' })
  getPendingPaidCount() {
    return this.queueCount('paidPending');
  }

  @callable({ verb: 'GET', returns: SERVICES, description: 'Services with a paid renewal the module has not been told about (the run tells it).' })
  getAllRenewablePaid() {
    return this.queueAll('renewablePaid');
  }

  @callable({ verb: 'GET', params: [int('page', { default: 1 })], returns: SERVICES, description: 'One page (25) of getAllRenewablePaid.' })
  getRenewablePaidList(page: number) {
    return this.queuePage('renewablePaid', page);
  }

  @callable({ verb: 'GET', returns: count(), description: 'How many services getAllRenewablePaid lists.' })
  getRenewablePaidCount() {
    return this.queueCount('renewablePaid');
  }

  @callable({ verb: 'GET', returns: SERVICES, description: 'Active or suspended services whose renewal invoice is not paid yet.' })
  getAllRenewableUnpaid() {
    return this.queueAll('renewableUnpaid');
  }

  @callable({ verb: 'GET', params: [int('page', { default: 1 })], returns: SERVICES, description: 'One page (25) of getAllRenewableUnpaid.' })
  getRenewableUnpaidList(page: number) {
    return this.queuePage('renewableUnpaid', page);
  }

  @callable({ verb: 'GET', returns: count(), description: 'How many services getAllRenewableUnpaid lists.' })
  getRenewableUnpaidCount() {
    return this.queueCount('renewableUnpaid');
  }

  @callable({ verb: 'GET', returns: SERVICES, description: 'Active services with an invoice overdue past their suspension days (the run suspends them).' })
  getAllPendingSuspension() {
    return this.queueAll('pendingSuspension');
  }

  @callable({ verb: 'GET', params: [int('page', { default: 1 })], returns: SERVICES, description: 'One page (25) of getAllPendingSuspension.' })
  getPendingSuspensionList(page: number) {
    return this.queuePage('pendingSuspension', page);
  }

  @callable({ verb: 'GET', returns: count(), description: 'How many services getAllPendingSuspension lists.' })
  getPendingSuspensionCount() {
    return this.queueCount('pendingSuspension');
  }

  @callable({ verb: 'GET', returns: SERVICES, description: 'Services the run suspended that are now paid (the run unsuspends them).' })
  getAllPendingUnsuspension() {
    return this.queueAll('pendingUnsuspension');
  }

  @callable({ verb: 'GET', params: [int('page', { default: 1 })], returns: SERVICES, description: 'One page (25) of getAllPendingUnsuspension.' })
  getPendingUnsuspensionList(page: number) {
    return this.queuePage('pendingUnsuspension', page);
  }

  @callable({ verb: 'GET', returns: count(), description: 'How many services getAllPendingUnsuspension lists.' })
  getPendingUnsuspensionCount() {
    return this.queueCount('pendingUnsuspension');
  }

  @callable({ verb: 'GET', returns: SERVICES, description: 'Services whose scheduled cancellation date has come (the run cancels them).' })
  getAllPendingCancelation() {
    return this.queueAll('pendingCancelation');
  }

  @callable({ verb: 'GET', params: [int('page', { default: 1 })], returns: SERVICES, description: 'One page (25) of getAllPendingCancelation.' })
  getPendingCancelationList(page: number) {
    return this.queuePage('pendingCancelation', page);
  }

  @callable({ verb: 'GET', returns: count(), description: 'How many services getAllPendingCancelation lists.' })
  getPendingCancelationCount() {
    return this.queueCount('pendingCancelation');
  }

  private async queueAll(name: string) {
    return presentServices(this.ctx.db, await this.queueRows(name), this.ctx.systemKey);
  }

  private async queuePage(name: string, page: number) {
    const offset = pageOffset(page, PAGE_SIZE);
    return presentServices(this.ctx.db, (await this.queueRows(name)).slice(offset, offset + PAGE_SIZE), this.ctx.systemKey);
  }

  private async queueCount(name: string) {
    return (await this.queueRows(name)).length;
  }

  /** The queue's services at this moment, by id; each client's by its own billing settings. */
  private async queueRows(name: string): Promise<ServiceRow[]> {
    const now = formatUtc(new Date());
    const profiles = await billingProfiles(this.ctx.db, this.ctx.companyId, this.ctx.systemKey);
    const rows: ServiceRow[] = [];
    for (const profile of ServiceQueueLists.SETTING_FREE.has(name) ? profiles.slice(0, 1) : profiles) {
      const found = (await this.queues[name](profile.settings, now)?.execute()) ?? [];
      rows.push(...(ServiceQueueLists.SETTING_FREE.has(name) ? found : found.filter((row) => profile.includes(row.client_id))));
    }
    return rows.sort((a, b) => a.id - b.id);
  }
}
