import { sql } from 'kysely';
import { CallContext } from '../../kernel/call-context';
import { ModelCalls } from '../../kernel/model-calls';
import { stored, toStored } from '../../kernel/money';
import { forUpdate } from '../../billing/for-update';
import { localDate, nextRenewDate, Period } from '../../billing/renew-dates';
import { shiftDays } from '../../billing/run-clock';
import { sliced, TaskOutcome, TaskRun } from '../task-run';

/** A recurring invoice as the task lists it: whose it is and the renew date it was listed with. */
interface Listed {
  id: number;
  client_id: number;
  date_renews: string;
}

/** Periods one unit may catch up on (a daily recurring invoice three years behind); the next run goes on. */
const MAX_CATCH_UP = 1200;

/**
 * The recurring invoices part of Create Invoice: every recurring invoice whose renew date is within
 * the client's "invoice days before renewal" makes its invoice through invoices/add (numbered, with
 * the Invoices.add event, as any other), billed now and due on the renew date (now when that is
 * past), its lines described with the period they bill, as the reference's addFromRecurring does.
 * One far behind makes one invoice per missed period, until its duration is reached.
 *
 * Once per period, however many runs: a unit moves the renew date on only from the date it read
 * (a conditional update under the row's lock, so a concurrent run's unit finds it moved and does
 * nothing), and invoices_recur_created's key (recurring invoice, period) refuses a second invoice
 * for a period outright.
 */
export async function createRecurringInvoices(run: TaskRun): Promise<TaskOutcome> {
  const until = shiftDays(run.now, run.settings.invoiceDaysBeforeRenewal, run.settings.timezone);
  const fetch = (): Promise<Listed[]> =>
    run.installation.db
      .selectFrom('invoices_recur')
      .select(['id', 'client_id', 'date_renews'])
      .where('company_id', '=', run.companyId)
      .where('date_renews', '<=', until)
      .where((eb) =>
        eb.or([
          eb('duration', 'is', null),
          eb(
            'duration',
            '>',
            eb
              .selectFrom('invoices_recur_created')
              .select(sql<number>`count(*)`.as('made'))
              .whereRef('invoices_recur_created.invoice_recur_id', '=', 'invoices_recur.id'),
          ),
        ]),
      )
      .orderBy('client_id')
      .orderBy('id')
      .execute();
  return sliced(run, 'create_invoice_recurring', fetch, async (due, unit) => {
    for (const listed of due) {
      await unit(`recurring invoice ${listed.id}`, (ctx, calls) => renew(ctx, calls, listed, until, run.now));
    }
  });
}

/** Makes the invoices a recurring invoice owes up to `until`; false when another run made them first. */
async function renew(ctx: CallContext, calls: ModelCalls, listed: Listed, until: string, now: string): Promise<boolean> {
  const query = ctx.db.selectFrom('invoices_recur').selectAll().where('company_id', '=', ctx.companyId).where('id', '=', listed.id);
  const recur = await forUpdate(ctx.db, query).executeTakeFirst();
  if (!recur || recur.date_renews !== listed.date_renews) return false;
  const [lines, delivery, made] = await Promise.all([
    ctx.db.selectFrom('invoice_recur_lines').select(['description', 'qty', 'amount', 'taxable']).where('invoice_recur_id', '=', recur.id).orderBy('line_order').orderBy('id').execute(),
    ctx.db.selectFrom('invoice_recur_delivery').select('method').where('invoice_recur_id', '=', recur.id).orderBy('id').execute(),
    ctx.db
      .selectFrom('invoices_recur_created')
      .select(sql<number | string>`count(*)`.as('made'))
      .where('invoice_recur_id', '=', recur.id)
      .executeTakeFirstOrThrow(),
  ]);
  let count = Number(made.made);
  let start = recur.date_renews;
  let did = false;
  for (let i = 0; i < MAX_CATCH_UP && start <= until && (recur.duration === null || count < recur.duration); i++) {
    const end = nextRenewDate(start, recur.term, recur.period as Period, ctx.timezone)!;
    const moved = await ctx.db.updateTable('invoices_recur').set({ date_renews: end, date_last_renewed: start }).where('id', '=', recur.id).where('date_renews', '=', start).executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return did;
    const period = `(${localDate(start, ctx.timezone)} - ${localDate(end, ctx.timezone)})`;
    const invoiceId = (await calls.call(ctx, 'invoices', 'add', {
      vars: {
        client_id: recur.client_id,
        date_billed: `${now} UTC`,
        date_due: `${start > now ? start : now} UTC`,
        status: 'active',
        currency: recur.currency,
        note_public: recur.note_public ?? '',
        note_private: recur.note_private ?? '',
        lines: lines.map((l) => ({ description: `${l.description} ${period}`, qty: toStored(stored(l.qty)), amount: toStored(stored(l.amount)), tax: l.taxable ? 'true' : 'false' })),
        ...(delivery.length ? { delivery: delivery.map((d) => d.method) } : {}),
      },
    })) as number;
    await ctx.db.insertInto('invoices_recur_created').values({ invoice_recur_id: recur.id, date_renews: start, invoice_id: invoiceId }).execute();
    count++;
    start = end;
    did = true;
  }
  return did;
}
