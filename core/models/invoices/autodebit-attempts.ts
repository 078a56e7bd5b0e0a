import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { int, string } from '../../kernel/parameter';
import { int as count, listOf, money, record, string as text, timestamp } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { pageOffset } from '../../billing/values';
import { PAGE_SIZE } from '../../kernel/paging';
import { stored, toStored } from '../../kernel/money';

const STATUSES = ['declined', 'approved', 'pending', 'all'] as const;

const ATTEMPT = record({
  invoice_id: count(),
  client_id: count(),
  account_id: count(),
  attempt_date: text({ description: 'The company-local day of the attempt, YYYY-MM-DD.' }),
  status: text({ enum: ['pending', 'approved', 'declined'], description: 'pending: claimed, the gateway has not answered (yet).' }),
  message: text({ nullable: true, description: "The gateway's reason, as it gave it." }),
  transaction_id: count({ nullable: true }),
  amount_due: money({ description: 'What the invoice still owes now.' }),
  currency: text(),
  date_added: timestamp(),
});

/**
 * The billing run's automatic debits, one row an invoice a day (core/automation/tasks/autodebit.ts
 * writes them): a declined charge is a row with the gateway's reason, so a run that "did" an
 * invoice whose card was refused still shows the refusal. A facet of the invoices model.
 */
@facet('invoices')
export class AutodebitAttempts {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description: `One page (25) of the company's automatic debit attempts, newest first, of one status (${STATUSES.join(', ')}; declined), each with its invoice, client and the gateway's reason.`,
    verb: 'GET',
    params: [string('status', { default: 'declined' }), int('page', { default: 1 })],
    returns: listOf(ATTEMPT),
  })
  async getAutodebitAttempts(status: string, page: number) {
    const rows = await this.attempts(status)
      .select([
        'autodebit_attempts.invoice_id',
        'invoices.client_id',
        'autodebit_attempts.account_id',
        'autodebit_attempts.attempt_date',
        'autodebit_attempts.status',
        'autodebit_attempts.message',
        'autodebit_attempts.transaction_id',
        'invoices.total',
        'invoices.paid',
        'invoices.currency',
        'autodebit_attempts.date_added',
      ])
      .orderBy('autodebit_attempts.date_added', 'desc')
      .orderBy('autodebit_attempts.invoice_id', 'desc')
      .limit(PAGE_SIZE)
      .offset(pageOffset(page, PAGE_SIZE))
      .execute();
    return rows.map(({ total, paid, ...row }) => ({ ...row, amount_due: toStored(stored(total).minus(stored(paid))) }));
  }

  @callable({ description: 'How many automatic debit attempts getAutodebitAttempts lists for the status.', verb: 'GET', params: [string('status', { default: 'declined' })], returns: count() })
  async getAutodebitAttemptCount(status: string) {
    const row = await this.attempts(status)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private attempts(status: string) {
    if (!(STATUSES as readonly string[]).includes(status)) throw TallyError.invalid({ status: { format: `The status must be one of ${STATUSES.join(', ')}.` } });
    let query = this.ctx.db.selectFrom('autodebit_attempts').innerJoin('invoices', 'invoices.id', 'autodebit_attempts.invoice_id').where('invoices.company_id', '=', this.ctx.companyId);
    if (status !== 'all') query = query.where('autodebit_attempts.status', '=', status);
    return query;
  }
}
