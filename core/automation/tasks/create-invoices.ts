import { sql } from 'kysely';
import { idIn } from '../../db/id-list';
import { runPrepared } from '../../db/prepared-statements';
import { CallContext } from '../../kernel/call-context';
import { ModelCalls } from '../../kernel/model-calls';
import { isPostgres } from '../../db/is-postgres';
import { invoiceServices } from '../../billing/from-services';
import { ensureInvoiceCounter } from '../../billing/numbering';
import { invoiceServiceBatch, ServiceInvoiceRequest } from '../../billing/service-invoice-batch';
import { serviceCurrency, serviceQuery, ServiceRow } from '../../billing/service-store';
import { renewingQuery } from '../../billing/service-queues';
import { shiftDays } from '../../billing/run-clock';
import { untilWritten } from '../run-retries';
import { sliced, Task, TaskRun } from '../task-run';
import { createRecurringInvoices } from './create-recurring-invoices';

/** A service far behind renews once per pass, until its renew date is past the window. */
const MAX_PASSES = 24;

/** A service as the task lists it: what groups it, and the renew date it was listed with. */
type Listed = Pick<ServiceRow, 'id' | 'client_id' | 'date_renews' | 'override_currency' | 'currency'>;

/** Invoices per transaction: few enough that one batch is short, enough that commits are rare. */
const BATCH = 50;

/**
 * Create Invoice: every service renewing within the company's "invoice days before renewal" gets
 * its renewal invoiced — one invoice per client and currency when "invoice services together",
 * else one per service — due on the renew date. The service period's unique key makes a second
 * or concurrent run's attempt fail harmlessly; the renew date moving on makes it find nothing.
 *
 * Then the company's recurring invoices that renew within the same window make their invoices
 * (create-recurring-invoices.ts), as the reference's Create Invoice task does.
 *
 * A batch of clients' invoices is written at once (invoiceServiceBatch); an invoice that batch
 * leaves (one invoices/add would refuse) goes through invoiceServices on its own, as the API's.
 */
export const createInvoices: Task = {
  name: 'create_invoice',
  kind: 'daily',
  callsExtensions: false,
  title: 'Create renewal invoices',
  run: async (run: TaskRun) => {
    const until = shiftDays(run.now, run.settings.invoiceDaysBeforeRenewal, run.settings.timezone);
    // Only what groups the services: each batch reads its services again, whole, in its transaction.
    const listed = () => renewingQuery(run.installation.db, run.companyId, until, run.settings.invoiceSuspendedServices).clearSelect();
    const fetch = async (): Promise<Listed[]> => {
      if (!isPostgres(run.installation.db)) {
        return listed()
          .select(['services.id', 'services.client_id', 'services.date_renews', 'services.override_currency', 'pricings.currency'])
          .orderBy('services.client_id')
          .orderBy('services.id')
          .execute();
      }
      // PostgreSQL: one row per client and currency, its services' ids and renew dates as text.
      // Every process of a run reads the whole list (it cannot know which slices it will get);
      // 100,000 rows cost each one about 0.15 s of CPU to receive, these a quarter of that.
      const rows = await listed()
        .select(['services.client_id', 'services.override_currency', 'pricings.currency'])
        .select(sql<string>`string_agg(cast(services.id as text), ',' order by services.id)`.as('ids'))
        .select(sql<string>`string_agg(services.date_renews, ',' order by services.id)`.as('renews'))
        .groupBy(['services.client_id', 'services.override_currency', 'pricings.currency'])
        .orderBy('services.client_id')
        .execute();
      return rows.flatMap((row) => {
        // Renew dates are stored timestamps (`YYYY-MM-DD hh:mm:ss`, never a comma).
        const renews = row.renews.split(',');
        return row.ids.split(',').map((id, i) => ({ id: Number(id), client_id: row.client_id, date_renews: renews[i], override_currency: row.override_currency, currency: row.currency }));
      });
    };
    const bulk = async (ctx: CallContext, _calls: ModelCalls, payloads: readonly unknown[]) => {
      const groups = payloads as ReadonlyArray<readonly Listed[]>;
      const current = await currentServices(ctx, groups);
      const fresh = groups.map((group) => freshOf(group, current));
      const requests = fresh.filter((f) => f.length).map((f) => request(f, run.now));
      const { ids, numbered } = await invoiceServiceBatch(ctx, requests);
      let next = 0;
      return { results: fresh.map((f) => (f.length ? (ids[next++] === null ? undefined : true) : false)), lastWrite: numbered };
    };
    // The batches number their invoices without waiting for the statement (numberInvoices): the counter has to be there.
    await untilWritten(() => ensureInvoiceCounter(run.installation.db, run.companyId));
    const services = await sliced(
      run,
      'create_invoice',
      fetch,
      async (due, unit) => {
        for (const group of groups(due, run.settings.invoiceServicesTogether)) {
          await unit(
            `client ${group[0].client_id}`,
            async (ctx, calls) => {
              const fresh = freshOf(group, await currentServices(ctx, [group]));
              if (!fresh.length) return false;
              const { clientId, services, options } = request(fresh, run.now);
              await invoiceServices(ctx, calls, clientId, services, options);
              return true;
            },
            group,
          );
        }
      },
      { passes: MAX_PASSES, batchSize: BATCH, bulk },
    );
    const recurring = await createRecurringInvoices(run);
    return { processed: services.processed + recurring.processed, failed: services.failed + recurring.failed, messages: [...services.messages, ...recurring.messages].slice(0, 20) };
  },
};

/** The groups' services as they are now, read inside the transaction: another run may have renewed them meanwhile. */
async function currentServices(ctx: CallContext, groups: ReadonlyArray<readonly Listed[]>): Promise<Map<number, ServiceRow>> {
  // By client, through the services' client index: given a list of ids, SQLite's planner prefers
  // to scan the company's services (a run's cost grew with the square of its size).
  const clientIds = [...new Set(groups.map((g) => g[0].client_id))];
  const rows = await runPrepared(ctx.db, serviceQuery(ctx.db, ctx.companyId).where(idIn(ctx.db, 'services.client_id', clientIds)));
  const current = new Map(rows.map((r) => [r.id, r]));
  // A service moved to another client since the list was read is found by its id.
  const moved = groups.flatMap((g) => g.map((s) => s.id)).filter((id) => !current.has(id));
  if (moved.length) for (const r of await serviceQuery(ctx.db, ctx.companyId).where('services.id', 'in', moved).execute()) current.set(r.id, r);
  return current;
}

/** The services of a group still due as they were listed, as they are now, in id order. */
function freshOf(group: readonly Listed[], current: ReadonlyMap<number, ServiceRow>): ServiceRow[] {
  return group
    .map((s) => current.get(s.id))
    .filter((c, i): c is ServiceRow => c !== undefined && c.date_renews === group[i].date_renews)
    .sort((a, b) => a.id - b.id);
}

/** The renewal invoice of fresh services of one client, due on the earliest renew date. */
function request(fresh: ServiceRow[], now: string): ServiceInvoiceRequest {
  const dueDate = fresh.map((s) => s.date_renews!).sort()[0];
  return { clientId: fresh[0].client_id, services: fresh, options: { currency: serviceCurrency(fresh[0]), dueDate, allowProRata: false, renew: true, termCycles: 1, now } };
}

/** Services of one client and currency together, or each alone. */
function groups(services: readonly Listed[], together: boolean): Listed[][] {
  if (!together) return services.map((s) => [s]);
  const byKey = new Map<string, Listed[]>();
  for (const s of services) {
    const key = `${s.client_id}/${serviceCurrency(s)}`;
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key)!.push(s);
  }
  return [...byKey.values()];
}
