import { Tx } from '../../db/schema';
import { sliced, Task, TaskRun } from '../task-run';

/** The company's pending changes whose invoice is paid (to apply) or voided (to cancel). */
function settledChanges(db: Tx, companyId: number) {
  return db
    .selectFrom('service_changes')
    .innerJoin('invoices', 'invoices.id', 'service_changes.invoice_id')
    .innerJoin('services', 'services.id', 'service_changes.service_id')
    .select(['service_changes.id', 'services.client_id'])
    .where('service_changes.company_id', '=', companyId)
    .where('service_changes.status', '=', 'pending')
    .where((eb) => eb.or([eb('invoices.status', '=', 'void'), eb.and([eb('invoices.date_closed', 'is not', null), eb('invoices.status', 'in', ['active', 'proforma'])])]))
    .orderBy('service_changes.id')
    .execute();
}

/**
 * Process Service Changes (the reference's task): applies each queued change whose invoice is
 * paid and cancels each whose invoice was voided, through services/processChange as the company,
 * each in its own unit (transaction): a change the module refuses stays pending and is reported,
 * the others go on. Every run, whatever
 * queue_service_changes says now: changes queued before it was turned off still wait for it.
 */
export const processServiceChanges: Task = {
  name: 'process_service_changes',
  title: 'Process paid service changes',
  kind: 'interval',
  callsExtensions: true,
  run: (run: TaskRun) =>
    sliced(
      run,
      'process_service_changes',
      () => settledChanges(run.installation.db, run.companyId),
      async (rows, unit) => {
        for (const row of rows) await unit(`service change ${row.id}`, async (ctx, calls) => (await calls.call(ctx, 'services', 'processChange', { service_change_id: row.id })) === true);
      },
    ),
};
