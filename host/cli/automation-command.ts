import { Command } from 'commander';
import { terminalText } from './terminal-text';
import { textTable } from './text-table';
import pino from 'pino';
import { BillingRunFailed, runBilling, TaskReport } from '../../core/automation/billing-run';
import { lastRuns } from '../../core/automation/run-log';
import { TASKS } from '../../core/automation/tasks';
import { config } from '../../core/config';
import { TallyError } from '../../core/kernel/tally-error';
import { formatUtc, parseTimestamp } from '../../core/kernel/timestamps';
import { parseId, withInstallation } from './api-keys-command';

/**
 * `tally automation run|status`: the billing run for system cron (or by hand), and the last run of
 * each task (extensions' scheduled tasks included, as `<extension>.<task>`), and `enable|disable`
 * of an extension's task for a company. A run here and the scheduler of `tally serve` may overlap:
 * they share the work.
 */
export function automationCommand(out: (text: string) => void): Command {
  const command = new Command('automation').description('The billing run: invoices, autodebit, provisioning, suspensions, cancellations');
  command
    .command('run')
    .description(`Run the billing tasks now (${TASKS.map((t) => t.name).join(', ')})`)
    .option('--company <id>', 'only this company', parseId)
    .option('--task <name...>', 'only these tasks')
    .option('--now <time>', 'the run\'s clock, "YYYY-MM-DD hh:mm:ss" UTC (default: now)')
    .action(async (options: { company?: number; task?: string[]; now?: string }) => {
      const now = options.now === undefined ? undefined : parseTimestamp(options.now, 'UTC');
      if (now === null) throw TallyError.invalid({ now: { format: `--now must be "YYYY-MM-DD hh:mm:ss" (UTC), got "${options.now}".` } });
      const unknown = (options.task ?? []).filter((name) => !TASKS.some((t) => t.name === name));
      if (unknown.length) throw TallyError.invalid({ task: { exists: `No such task: ${unknown.join(', ')}. Tasks: ${TASKS.map((t) => t.name).join(', ')}.` } });
      const reports = await withInstallation(async (installation) => {
        // Modules and gateways run in the extension runtime, started (and its code loaded) only
        // for a task that calls them: `--task create_invoice` from cron starts no sandbox. Its
        // warnings go to stderr.
        const loadExtensions = async () => {
          const logger = pino({ level: config().logLevel === 'info' ? 'warn' : config().logLevel }, pino.destination(2));
          await (await import('../extensions/load-extensions')).loadExtensions(installation, { logger });
        };
        return runBilling(installation, { now: now ? formatUtc(now) : undefined, companyId: options.company, tasks: options.task, loadExtensions }).catch((error) => {
          // What the companies that did not fail did, before the failures (exit status 1).
          if (error instanceof BillingRunFailed && error.reports.length) out(formatReports(error.reports));
          throw error;
        });
      });
      out(formatReports(reports));
    });
  command
    .command('status')
    .description('The last run of each task of each company')
    .option('--company <id>', 'only this company', parseId)
    .action(async (options: { company?: number }) => {
      const rows = await withInstallation((installation) => lastRuns(installation.db, options.company ?? null));
      if (!rows.length) {
        out('No billing run yet.');
        return;
      }
      out(
        textTable(
          ['company', 'task', 'status', 'started', 'finished', 'done', 'failed', 'runs', 'by', 'message'],
          rows.map((r) => [r.company_id, r.task, r.status, r.date_started, r.date_finished ?? '-', r.processed, r.failed, r.runs, r.runner ?? '-', (r.message ?? '').split('\n')[0]]),
        ),
      );
    });
  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    command
      .command(`${verb} <task>`)
      .description(`${enabled ? 'Run' : 'Stop running'} an extension's scheduled task (<extension>.<task>, as status lists it) for a company`)
      .requiredOption('--company <id>', 'the company', parseId)
      .action(async (task: string, options: { company: number }) => {
        await withInstallation(async (installation) => {
          // The tasks are the loaded extensions' manifests' (quietly: only the answer matters here).
          await (await import('../extensions/load-extensions')).loadExtensions(installation, { logger: pino({ level: 'silent' }) });
          await installation.call('extension_tasks', verb, { task }, { companyId: options.company, user: 'cli' });
        });
        out(`${task} ${enabled ? 'enabled' : 'disabled'} for company ${options.company}.`);
      });
  }
  return command;
}

function formatReports(reports: readonly TaskReport[]): string {
  const rows = reports.map((r) => [r.companyId, r.task, r.processed, r.failed, r.seconds.toFixed(2)]);
  const failures = reports.flatMap((r) => r.messages.map((m) => `company ${r.companyId} ${r.task}: ${terminalText(m)}`));
  return [textTable(['company', 'task', 'done', 'failed', 'seconds'], rows), ...failures].join('\n');
}
