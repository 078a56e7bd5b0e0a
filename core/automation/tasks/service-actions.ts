import { Tx } from '../../db/schema';
import { CallContext } from '../../kernel/call-context';
import { findService, ServiceRow } from '../../billing/service-store';
import { paidPendingQuery, pendingCancelationQuery, pendingSuspensionQuery, pendingUnsuspensionQuery, renewablePaidQuery } from '../../billing/service-queues';
import { ServiceTransitions } from '../../billing/transitions';
import { mailServiceMoves } from '../../delivery/service-email';
import { shiftDays } from '../../billing/run-clock';
import { sliced, Task, TaskOutcome, TaskRun } from '../task-run';

type Row = ServiceRow & { period_start?: string };
interface Queue {
  where(...args: any[]): Queue;
  orderBy(column: string): Queue;
  execute(): Promise<Row[]>;
}

interface ServiceTaskSpec {
  readonly name: string;
  readonly title: string;
  readonly kind: Task['kind'];
  /** The queue at the run's clock, or null when the company's settings turn the task off. */
  queue(db: Tx, run: TaskRun): Queue | null;
  act(ctx: CallContext, t: ServiceTransitions, service: ServiceRow, row: Row, run: TaskRun): Promise<void>;
}

/**
 * A task that takes each service of a queue through one lifecycle action, each in its own
 * transaction: the queue is asked again there for that service, so one a concurrent run (or a
 * person) already dealt with is left alone. A module's refusal leaves the service as it was and
 * is reported; the other services go on.
 */
function serviceTask(spec: ServiceTaskSpec): Task {
  return {
    name: spec.name,
    title: spec.title,
    kind: spec.kind,
    // Every service transition goes through the package's module.
    callsExtensions: true,
    async run(run: TaskRun): Promise<TaskOutcome> {
      if (!spec.queue(run.installation.db, run)) return { processed: 0, failed: 0, messages: [] };
      const fetch = () => spec.queue(run.installation.db, run)!.orderBy('services.id').execute();
      return sliced(run, spec.name, fetch, async (rows, unit) => {
        for (const row of rows) {
          await unit(`service ${row.id}`, async (ctx, calls) => {
            const [still] = await spec
              .queue(ctx.db, run)!
              .where('services.id', '=', row.id)
              .where((eb: any) => (row.period_start ? eb('service_invoices.period_start', '=', row.period_start) : eb.lit(true)))
              .execute();
            if (!still) return false;
            const service = (await findService(ctx.db, ctx.companyId, row.id))!;
            await spec.act(ctx, new ServiceTransitions(ctx, calls, run.now, mailServiceMoves(ctx.db)), service, still, run);
            return true;
          });
        }
      });
    },
  };
}

export const provisionPaidPending = serviceTask({
  name: 'provision_paid_pending',
  title: 'Provision paid pending services',
  kind: 'interval',
  queue: (db, run) => (run.settings.provisionPaidPending ? paidPendingQuery(db, run.companyId) : null),
  act: async (ctx, t, service, _row, run) => {
    // The client is told its paid service is ready, as the reference's provisioning task does.
    await t.activate(service, true, true);
    await ctx.db.updateTable('service_invoices').set({ date_processed: run.now }).where('service_id', '=', service.id).where('kind', '=', 'new').execute();
  },
});

export const processRenewals = serviceTask({
  name: 'process_renewals',
  title: 'Process paid renewals',
  kind: 'interval',
  queue: (db, run) => renewablePaidQuery(db, run.companyId) as unknown as Queue,
  act: async (ctx, t, service, row, run) => {
    await t.renew(service);
    await ctx.db.updateTable('service_invoices').set({ date_processed: run.now }).where('service_id', '=', service.id).where('period_start', '=', row.period_start!).execute();
  },
});

export const suspendServices = serviceTask({
  name: 'suspend_services',
  title: 'Suspend services past due',
  kind: 'daily',
  queue: (db, run) => {
    const days = run.settings.suspendDaysAfterDue;
    return days === null ? null : pendingSuspensionQuery(db, run.companyId, shiftDays(run.now, -days, run.settings.timezone));
  },
  act: (_ctx, t, service) => t.suspend(service, { auto: true, reason: 'Not paid.' }),
});

export const unsuspendServices = serviceTask({
  name: 'unsuspend_services',
  title: 'Unsuspend paid services',
  kind: 'interval',
  queue: (db, run) => pendingUnsuspensionQuery(db, run.companyId, shiftDays(run.now, -(run.settings.suspendDaysAfterDue ?? 0), run.settings.timezone)),
  act: (_ctx, t, service) => t.unsuspend(service),
});

export const cancelScheduled = serviceTask({
  name: 'cancel_scheduled',
  title: 'Cancel scheduled cancellations',
  kind: 'daily',
  queue: (db, run) => pendingCancelationQuery(db, run.companyId, run.now),
  act: (_ctx, t, service) => t.cancel(service, true, true),
});
