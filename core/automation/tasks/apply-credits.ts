import { stored } from '../../kernel/money';
import { clientCredit, unapplied } from '../../billing/transaction-store';
import { sliced, Task, TaskRun } from '../task-run';

/**
 * Apply Payments to Open Invoices: a client's loose credit (what its payments left) is spent on
 * its open invoices of the same currency, oldest due first, oldest payment first, through
 * transactions/apply — which locks and caps, so a concurrent run cannot apply a cent twice.
 */
export const applyCredits: Task = {
  name: 'apply_credits',
  kind: 'interval',
  callsExtensions: false,
  title: 'Apply loose credits to open invoices',
  run: (run: TaskRun) => {
    const fetch = async () =>
      !run.settings.autoApplyCredits
        ? []
        : run.installation.db
            .selectFrom('invoices')
            .select(['client_id', 'currency'])
            .distinct()
            .where('company_id', '=', run.companyId)
            .where('status', 'in', ['active', 'proforma'])
            .where('date_closed', 'is', null)
            .where(({ exists, selectFrom }) =>
              exists(
                selectFrom('transactions')
                  .select('transactions.id')
                  .whereRef('transactions.client_id', '=', 'invoices.client_id')
                  .whereRef('transactions.currency', '=', 'invoices.currency')
                  .where('transactions.status', '=', 'approved'),
              ),
            )
            .execute();
    return sliced(run, 'apply_credits', fetch, async (owing, unit) => {
      for (const { client_id: clientId, currency } of owing) {
        await unit(`client ${clientId}`, async (ctx, calls) => {
          if ((await clientCredit(ctx.db, ctx.companyId, clientId, currency)).lte(0)) return false;
          const open = () =>
            ctx.db
              .selectFrom('invoices')
              .select('id')
              .where('company_id', '=', ctx.companyId)
              .where('client_id', '=', clientId)
              .where('currency', '=', currency)
              .where('status', 'in', ['active', 'proforma'])
              .where('date_closed', 'is', null)
              .orderBy('date_due')
              .orderBy('id')
              .execute();
          const payments = await ctx.db
            .selectFrom('transactions')
            .select(['id', 'amount', 'refunded'])
            .where('company_id', '=', ctx.companyId)
            .where('client_id', '=', clientId)
            .where('currency', '=', currency)
            .where('status', '=', 'approved')
            .orderBy('date_added')
            .orderBy('id')
            .execute();
          let applied = false;
          for (const p of payments) {
            if ((await unapplied(ctx.db, { id: p.id, amount: stored(p.amount), refunded: stored(p.refunded) })).lte(0)) continue;
            const invoices = await open();
            if (!invoices.length) break;
            await calls.call(ctx, 'transactions', 'apply', { transaction_id: p.id, vars: { invoices: invoices.map((i) => ({ invoice_id: i.id })) } });
            applied = true;
          }
          return applied;
        });
      }
    });
  },
};
