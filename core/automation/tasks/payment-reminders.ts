import { DateTime } from 'luxon';
import { Tx } from '../../db/schema';
import { localDate, toStoredUtc } from '../../billing/renew-dates';
import { shiftDays } from '../../billing/run-clock';
import { sliced, Task, TaskRun } from '../task-run';
import { queueNoticeEmail } from '../../delivery/invoice-notice-email';

/** A notice whose day a run missed (the installation was down) still goes out this many days late, not later. */
export const CATCH_UP_DAYS = 7;

/** The notice the billing run records before an invoice's auto debit. */
export const PENDING_AUTODEBIT = 'notice_pending_autodebit';

interface Due {
  readonly id: number;
  readonly client_id: number;
  readonly date_due: string;
  readonly notice: string;
}

/**
 * Payment Reminders: each notice the company turns on (first, second and third payment notice, N
 * days from the due date; auto debit pending, N days before the charge) becomes an
 * `invoice_notices` record — which invoice, which notice, when — and, unless the client declines
 * payment notices (send_payment_notices), an email in the mail outbox written in the same
 * transaction, which marks the notice sent once the server takes it (core/delivery/). A notice not
 * mailed stays pending for whatever else delivers them (`invoice_notices/getList`, `markSent`). A notice is due on its company-local
 * day, or on a later run up to CATCH_UP_DAYS late unless a later notice is due by then; its unique
 * key (invoice, notice) makes it once, whatever runs at once or again.
 */
export const paymentReminders: Task = {
  name: 'payment_reminders',
  kind: 'daily',
  callsExtensions: false,
  title: 'Record payment reminders',
  run: (run: TaskRun) => {
    const fetch = async () => {
      const rows: Due[] = [];
      for (const [i, { notice, days }] of run.settings.notices.entries()) {
        const later = run.settings.notices[i + 1];
        let query = openInvoices(run.installation.db, run)
          .where('invoices.date_due', '<', dayStart(run, 1 - days))
          .where('invoices.date_due', '>=', dayStart(run, -days - CATCH_UP_DAYS));
        if (later) query = query.where('invoices.date_due', '>=', dayStart(run, 1 - later.days));
        rows.push(...(await query.execute()).map((r) => ({ ...r, notice })));
      }
      const before = run.settings.pendingAutodebitNoticeDays;
      if (run.settings.autodebit && before !== null) {
        // The charge happens on the due date less the auto debit days: tell the client `before` days ahead of it.
        const charge = run.settings.autodebitDaysBeforeDue;
        const pending = await openInvoices(run.installation.db, run)
          .innerJoin('client_autodebit', 'client_autodebit.client_id', 'invoices.client_id')
          .innerJoin('accounts', 'accounts.id', 'client_autodebit.account_id')
          .where('accounts.status', '=', 'active')
          .where('client_autodebit.failures', '<', run.settings.autodebitAttempts)
          .where('invoices.date_due', '<', dayStart(run, 1 + charge + before))
          .where('invoices.date_due', '>=', dayStart(run, 1 + charge))
          .execute();
        rows.push(...pending.map((r) => ({ ...r, notice: PENDING_AUTODEBIT })));
      }
      return rows.sort((a, b) => a.client_id - b.client_id || a.id - b.id);
    };
    return sliced(
      run,
      'payment_reminders',
      fetch,
      async (rows, unit) => {
        for (const row of rows) {
          await unit(`invoice ${row.id} ${row.notice}`, async (ctx) => {
            // Paid or voided since the list was read: no reminder.
            if (!(await openInvoices(ctx.db, run).where('invoices.id', '=', row.id).executeTakeFirst())) return false;
            const made = await ctx.db
              .insertInto('invoice_notices')
              .values({ company_id: run.companyId, client_id: row.client_id, invoice_id: row.id, notice: row.notice, date_due: row.date_due, date_added: run.now, status: 'pending', date_sent: null })
              .onConflict((oc) => oc.columns(['invoice_id', 'notice']).doNothing())
              .returning('id')
              .executeTakeFirst();
            if (!made) return false;
            // Emailed through the mail outbox in the same transaction, unless the client declines payment notices.
            await queueNoticeEmail(ctx.db, run.companyId, ctx.systemKey, { id: Number(made.id), invoiceId: row.id, notice: row.notice, autodebitDate: chargeDay(run, row) });
            return true;
          });
        }
      },
      { batchSize: 50 },
    );
  },
};

/** The company's open invoices already billed at the run's clock. */
function openInvoices(db: Tx, run: TaskRun) {
  return db
    .selectFrom('invoices')
    .select(['invoices.id', 'invoices.client_id', 'invoices.date_due'])
    .where('invoices.company_id', '=', run.companyId)
    .where('invoices.status', 'in', ['active', 'proforma'])
    .where('invoices.date_closed', 'is', null)
    .where('invoices.date_billed', '<=', run.now);
}

/** The UTC start of the company-local day `days` from the run's local today. */
function dayStart(run: TaskRun, days: number): string {
  return toStoredUtc(DateTime.fromFormat(run.now, 'yyyy-MM-dd HH:mm:ss', { zone: 'utc' }).setZone(run.settings.timezone).startOf('day').plus({ days }));
}

/**
 * The company-local day the autodebit task charges an invoice (its due date less the auto debit
 * days, as that task selects it), for the auto debit pending notice's {autodebit_date}; none for
 * the other notices.
 */
function chargeDay(run: TaskRun, row: Due): string | undefined {
  if (row.notice !== PENDING_AUTODEBIT) return undefined;
  const zone = run.settings.timezone;
  return localDate(shiftDays(row.date_due, -run.settings.autodebitDaysBeforeDue, zone), zone);
}
