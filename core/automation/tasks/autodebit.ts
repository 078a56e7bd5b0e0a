import { sql } from 'kysely';
import { isUniqueViolation } from '../../db/errors';
import { stored, toStored } from '../../kernel/money';
import { TallyError } from '../../kernel/tally-error';
import { localDate } from '../../billing/renew-dates';
import { asCompany, CompanyScope } from '../company-scope';
import { shiftDays } from '../../billing/run-clock';
import { sliced, Task, TaskRun } from '../task-run';
import { UnitFailed } from '../unit-batch';
import { emit } from '../../events/emit';
import { Tx } from '../../db/schema';
import { AfterCommitQueue } from '../../kernel/call-context';
import { chargeStoredAccount } from '../../payments/charge-stored-account';

const failuresOf = async (db: Tx, clientId: number) => Number((await db.selectFrom('client_autodebit').select('failures').where('client_id', '=', clientId).executeTakeFirstOrThrow()).failures);

/**
 * Auto Debit: open invoices due within "auto debit days before due" are charged to the client's
 * autodebit account through its gateway, while the client's failures stay under "auto debit
 * attempts". Each charge is claimed first — a committed row keyed (invoice, local day) — and only
 * then made, so two runs at once, or a run repeated the same day, or a run after a crash between
 * the claim and the answer, never charge one invoice twice. The charge is the one every charge of
 * a stored account takes (chargeStoredAccount: its own idempotency key, no transaction held while
 * the gateway asks its processor); its outcome is then recorded in the run's unit. A decline, or a
 * refusal, counts a failure (the client's, and the run's: a declined invoice is never "done") with
 * the gateway's reason; an approval (the payment recorded on the invoice) clears the client's.
 */
export const autodebit: Task = {
  name: 'autodebit',
  kind: 'daily',
  callsExtensions: true,
  title: 'Auto debit open invoices',
  run: (run: TaskRun) => {
    let opened: Promise<CompanyScope> | undefined;
    const scope = () => (opened ??= CompanyScope.open(run.installation, run.companyId));
    const day = localDate(run.now, run.settings.timezone);
    const until = shiftDays(run.now, run.settings.autodebitDaysBeforeDue, run.settings.timezone);
    const fetch = async () =>
      !run.settings.autodebit
        ? []
        : run.installation.db
            .selectFrom('invoices')
            .innerJoin('client_autodebit', 'client_autodebit.client_id', 'invoices.client_id')
            .innerJoin('accounts', 'accounts.id', 'client_autodebit.account_id')
            .select(['invoices.id', 'invoices.client_id', 'invoices.currency', 'invoices.total', 'invoices.paid', 'accounts.id as account_id'])
            .where('invoices.company_id', '=', run.companyId)
            .where('invoices.status', 'in', ['active', 'proforma'])
            .where('invoices.date_closed', 'is', null)
            .where('invoices.date_due', '<=', until)
            .where('accounts.status', '=', 'active')
            .where('client_autodebit.failures', '<', run.settings.autodebitAttempts)
            .where(({ not, exists, selectFrom }) =>
              not(
                exists(
                  selectFrom('autodebit_attempts')
                    .select(sql`1`.as('one'))
                    .whereRef('autodebit_attempts.invoice_id', '=', 'invoices.id')
                    .where('autodebit_attempts.attempt_date', '=', day),
                ),
              ),
            )
            .orderBy('invoices.client_id')
            .orderBy('invoices.date_due')
            .execute();
    return sliced(
      run,
      'autodebit',
      fetch,
      async (invoices, unit) => {
        for (const invoice of invoices) {
          const amount = stored(invoice.total).minus(stored(invoice.paid));
          if (amount.lte(0)) continue;
          const claimed = await asCompany(run.installation, run.companyId, async (ctx) => {
            try {
              await ctx.db
                .insertInto('autodebit_attempts')
                .values({ invoice_id: invoice.id, attempt_date: day, account_id: invoice.account_id, status: 'pending', message: null, transaction_id: null, date_added: run.now })
                .execute();
              return true;
            } catch (error) {
              if (isUniqueViolation(error)) return false;
              throw error;
            }
          });
          if (!claimed) continue;
          const answer = await chargeAccount(await scope(), invoice.account_id, invoice.id);
          await unit(`invoice ${invoice.id}`, async (ctx) => {
            const approved = answer.status === 'approved';
            await ctx.db
              .updateTable('autodebit_attempts')
              .set({ status: approved ? 'approved' : 'declined', message: answer.message ?? null, transaction_id: answer.transaction_id ?? null })
              .where('invoice_id', '=', invoice.id)
              .where('attempt_date', '=', day)
              .execute();
            await ctx.db
              .updateTable('client_autodebit')
              .set(approved ? { failures: 0 } : (eb) => ({ failures: eb('failures', '+', 1) }))
              .where('client_id', '=', invoice.client_id)
              .execute();
            if (!approved)
              await emit(ctx, 'Autodebit.failed', {
                invoice_id: invoice.id,
                client_id: invoice.client_id,
                amount: toStored(amount),
                currency: invoice.currency,
                attempt: await failuresOf(ctx.db, invoice.client_id),
                reason: answer.message ?? answer.status,
              });
            return approved ? true : new UnitFailed(`declined: ${answer.message ?? answer.status}`);
          });
        }
        // One charge per unit: its outcome is recorded the moment the gateway answers.
      },
      { batchSize: 1 },
    );
  },
};

/** What a charge came to, for the run: the gateway's verdict and message, and the payment made. */
interface ChargeAnswer {
  readonly status: string;
  readonly message?: string;
  readonly transaction_id?: number | null;
}

/**
 * Charges what is due on the invoice to the autodebit account through the one use case every
 * charge of a stored account takes (chargeStoredAccount): written down first with the attempt's
 * idempotency key, no transaction held while the gateway asks its processor, a race with the
 * processor's notification recorded once, the payment named by the account and the receipt queued.
 * A refusal (a 400: the gateway not installed, the invoice settled meanwhile) is a failed charge
 * with its reason, as a decline is.
 */
async function chargeAccount(scope: CompanyScope, accountId: number, invoiceId: number): Promise<ChargeAnswer> {
  const committed: AfterCommitQueue = [];
  try {
    return await chargeStoredAccount(scope.context(scope.db, committed), scope.calls, accountId, [invoiceId], 'invoice_id');
  } catch (error) {
    if (!(error instanceof TallyError)) throw error;
    const reasons = error.errors ? Object.values(error.errors).flatMap((e) => Object.values(e)) : [];
    return { status: 'error', message: reasons.length ? reasons.join(' ') : error.message };
  } finally {
    await scope.afterCommit(committed);
  }
}
