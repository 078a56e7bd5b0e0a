import { sql } from 'kysely';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { model } from '../kernel/model';
import { int, string } from '../kernel/parameter';
import { bool as yes, int as count, listOf, orFalse } from '../kernel/shape';
import { TallyError } from '../kernel/tally-error';
import { formatUtc } from '../kernel/timestamps';
import { pageOffset } from '../billing/values';
import { INVOICE_NOTICE, NOTICE_NAMES, NOTICE_TYPES } from './invoice-notices.fields';
import { PAGE_SIZE } from '../kernel/paging';

const STATUSES = ['pending', 'sent', 'all'];

/**
 * Payment reminders: the billing run's `payment_reminders` task records one per invoice per notice
 * (first, second, third payment notice; auto debit pending) and emails it through the mail outbox
 * unless the client declines payment notices (send_payment_notices); the mail worker marks it sent
 * once the server takes it. A notice not mailed stays pending: whatever else delivers them lists the
 * pending ones, sends each and marks it sent.
 */
@model('invoice_notices')
export class InvoiceNotices {
  constructor(private readonly ctx: CallContext) {}

  @callable({ verb: 'GET', params: [int('notice_id')], description: 'One notice, or false.', returns: orFalse(INVOICE_NOTICE) })
  async get(noticeId: number) {
    return (await this.query().where('id', '=', noticeId).executeTakeFirst()) ?? false;
  }

  @callable({
    verb: 'GET',
    params: [int('client_id', { default: null }), string('status', { default: 'pending' }), int('page', { default: 1 })],
    description:
      'One page (25) of notices, oldest first, optionally of one client. status: pending (to deliver: not sent, and the invoice is still open — a reminder of a paid or voided invoice is not sent), sent, all.',
    returns: listOf(INVOICE_NOTICE),
  })
  getList(clientId: number | null, status: string, page: number) {
    return this.filtered(clientId, status).orderBy('id').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
  }

  @callable({ verb: 'GET', params: [int('client_id', { default: null }), string('status', { default: 'pending' })], description: 'How many notices getList would list.', returns: count() })
  async getListCount(clientId: number | null, status: string) {
    const row = await this.filtered(clientId, status)
      .clearSelect()
      .select(sql<number>`count(*)`.as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  @callable({
    verb: 'PUT',
    params: [int('notice_id')],
    description: 'Mark a notice delivered: true when this call marked it, false when it already was (two deliverers at once send it once if each sends only after a true).',
    returns: yes(),
  })
  async markSent(noticeId: number) {
    if (!(await this.get(noticeId))) throw TallyError.invalid({ notice_id: { exists: 'Invalid notice ID.' } });
    const result = await this.ctx.db
      .updateTable('invoice_notices')
      .set({ status: 'sent', date_sent: formatUtc(new Date()) })
      .where('id', '=', noticeId)
      .where('company_id', '=', this.ctx.companyId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  @callable({ verb: 'GET', description: 'The notices and their names (the settings notice1, notice2, notice3, notice_pending_autodebit turn them on).', returns: NOTICE_TYPES })
  getTypes() {
    return NOTICE_NAMES;
  }

  private query() {
    return this.ctx.db
      .selectFrom('invoice_notices')
      .select(['id', 'company_id', 'client_id', 'invoice_id', 'notice', 'date_due', 'date_added', 'status', 'date_sent'])
      .where('company_id', '=', this.ctx.companyId);
  }

  private filtered(clientId: number | null, status: string) {
    if (!STATUSES.includes(status)) throw TallyError.invalid({ status: { format: 'The status must be pending, sent or all.' } });
    let query = this.query();
    if (clientId !== null) query = query.where('client_id', '=', clientId);
    if (status === 'sent') query = query.where('status', '=', 'sent');
    if (status === 'pending') {
      query = query
        .where('status', '=', 'pending')
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('invoices')
              .select('invoices.id')
              .whereRef('invoices.id', '=', 'invoice_notices.invoice_id')
              .where('invoices.status', 'in', ['active', 'proforma'])
              .where('invoices.date_closed', 'is', null),
          ),
        );
    }
    return query;
  }
}
