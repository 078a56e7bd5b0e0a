import { invoiceServices } from '../../models/invoices/from-services';
import { serviceCurrency, serviceQuery, ServiceRow } from '../../models/services/service-store';
import { renewingQuery } from '../../models/services/service-queues';
import { shiftDays } from '../run-clock';
import { sliced, Task, TaskRun } from '../task-run';

/** A service far behind renews once per pass, until its renew date is past the window. */
const MAX_PASSES = 24;

/**
 * Create Invoice: every service renewing within the company's "invoice days before renewal" gets
 * its renewal invoiced — one invoice per client and currency when "invoice services together",
 * else one per service — due on the renew date. The service period's unique key makes a second
 * or concurrent run's attempt fail harmlessly; the renew date moving on makes it find nothing.
 */
export const createInvoices: Task = {
  name: 'create_invoice',
  kind: 'daily',
  title: 'Create renewal invoices',
  run: (run: TaskRun) => {
    const until = shiftDays(run.now, run.settings.invoiceDaysBeforeRenewal, run.settings.timezone);
    const fetch = () => renewingQuery(run.installation.db, run.companyId, until, run.settings.invoiceSuspendedServices).orderBy('services.client_id').orderBy('services.id').execute();
    return sliced(run, 'create_invoice', fetch, async (due, unit) => {
      for (const group of groups(due, run.settings.invoiceServicesTogether)) {
        await unit(`client ${group[0].client_id}`, async (ctx, calls) => {
          // Read again inside the transaction: another run may have renewed these meanwhile.
          const current = await serviceQuery(ctx.db, ctx.companyId).where('services.id', 'in', group.map((s) => s.id)).orderBy('services.id').execute();
          const fresh = current.filter((c) => group.some((s) => s.id === c.id && s.date_renews === c.date_renews));
          if (!fresh.length) return false;
          const dueDate = fresh.map((s) => s.date_renews!).sort()[0];
          await invoiceServices(ctx, calls, fresh[0].client_id, fresh, { currency: serviceCurrency(fresh[0]), dueDate, allowProRata: false, renew: true, termCycles: 1, now: run.now });
          return true;
        });
      }
    }, { passes: MAX_PASSES, batchSize: 20 });
  },
};

/** Services of one client and currency together, or each alone. */
function groups(services: readonly ServiceRow[], together: boolean): ServiceRow[][] {
  if (!together) return services.map((s) => [s]);
  const byKey = new Map<string, ServiceRow[]>();
  for (const s of services) {
    const key = `${s.client_id}/${serviceCurrency(s)}`;
    byKey.set(key, [...(byKey.get(key) ?? []), s]);
  }
  return [...byKey.values()];
}
