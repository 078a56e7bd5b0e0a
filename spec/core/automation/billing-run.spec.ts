import { expect } from 'chai';
import { runBilling } from '../../../core/automation/billing-run';
import { TASKS } from '../../../core/automation/tasks';
import { Installation } from '../../../core/installation';
import { useTestInstallation } from '../../support/test-installation';

/**
 * A run starts the extension runtime (`loadExtensions`) once, just before the first task that
 * calls modules or gateways, and never for a run of tasks that call none (a cron job that only
 * invoices starts no sandbox).
 */
describe('runBilling: the extension runtime, only for tasks that call extensions', () => {
  let installation: Installation;

  useTestInstallation((opened) => ({ installation } = opened));

  /** Runs `tasks`, answering which tasks had finished each time loadExtensions was called. */
  async function loads(tasks: string[], now: string): Promise<string[][]> {
    const calls: string[][] = [];
    const loadExtensions = async () => {
      const done = await installation.db.selectFrom('automation_runs').select('task').where('date_started', '=', now).where('status', '=', 'done').execute();
      calls.push(done.map((r) => r.task).sort());
    };
    await runBilling(installation, { now, tasks, loadExtensions });
    return calls;
  }

  it('tasks that call no extension: not started', async () => {
    expect(await loads(['create_invoice', 'apply_credits', 'payment_reminders'], '2027-05-01 10:00:00')).to.deep.equal([]);
  });

  it('started once, after the tasks before the first one that calls extensions', async () => {
    expect(await loads(['create_invoice', 'autodebit', 'suspend_services', 'cancel_scheduled'], '2027-05-02 10:00:00')).to.deep.equal([['create_invoice']]);
  });

  it('the gateway and module tasks are the ones that call extensions', () => {
    const calling = TASKS.filter((t) => t.callsExtensions).map((t) => t.name);
    expect(calling).to.deep.equal([
      'autodebit',
      'provision_paid_pending',
      'process_renewals',
      'process_service_changes',
      'unsuspend_services',
      'suspend_services',
      'cancel_scheduled',
      'exchange_rates',
    ]);
  });
});
