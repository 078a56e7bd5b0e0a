import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { model } from '../kernel/model';
import { int, string } from '../kernel/parameter';
import { int as count, orFalse } from '../kernel/shape';
import { TallyError } from '../kernel/tally-error';
import { pageOffset } from '../billing/values';
import { PAGE_SIZE } from '../kernel/paging';
import { presentChange } from '../billing/queued-changes';
import { CHANGE_STATUS_VALUES, SERVICE_CHANGE, SERVICE_CHANGES } from './service-changes.fields';

/**
 * The reference's ServiceChanges: the changes of pricing or options services/edit queued (the
 * company's queue_service_changes) until their invoice is paid — pending, then completed by the
 * billing run's process_service_changes task (services/processChange), or canceled when the invoice
 * is voided. A company sees only its own.
 */
@model('service_changes')
export class ServiceChanges {
  constructor(private readonly ctx: CallContext) {}

  @callable({ returns: orFalse(SERVICE_CHANGE), verb: 'GET', params: [int('service_change_id')], description: 'A queued service change, or false.' })
  async get(changeId: number) {
    const row = await this.query().where('id', '=', changeId).executeTakeFirst();
    return row ? presentChange(row) : false;
  }

  @callable({
    returns: SERVICE_CHANGES,
    verb: 'GET',
    params: [string('status', { default: null }), int('service_id', { default: null })],
    description: 'Every queued change (of a status: pending, completed, canceled; of a service), oldest first.',
  })
  async getAll(status: string | null, serviceId: number | null) {
    return (await this.filtered(status, serviceId).orderBy('id').execute()).map(presentChange);
  }

  @callable({
    returns: SERVICE_CHANGES,
    verb: 'GET',
    params: [string('status', { default: null }), int('service_id', { default: null }), int('page', { default: 1 })],
    description: `A page (${PAGE_SIZE}) of queued changes, newest first.`,
  })
  async getList(status: string | null, serviceId: number | null, page: number) {
    const rows = await this.filtered(status, serviceId).orderBy('id', 'desc').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
    return rows.map(presentChange);
  }

  @callable({ returns: count(), verb: 'GET', params: [string('status', { default: null }), int('service_id', { default: null })], description: 'How many queued changes getList pages through.' })
  async getListCount(status: string | null, serviceId: number | null) {
    const row = await this.filtered(status, serviceId)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private query() {
    return this.ctx.db.selectFrom('service_changes').selectAll().where('company_id', '=', this.ctx.companyId);
  }

  private filtered(status: string | null, serviceId: number | null) {
    if (status !== null && !CHANGE_STATUS_VALUES.includes(status)) throw TallyError.invalid({ status: { format: `Please give one of ${CHANGE_STATUS_VALUES.join(', ')}.` } });
    let query = this.query();
    if (status !== null) query = query.where('status', '=', status);
    if (serviceId !== null) query = query.where('service_id', '=', serviceId);
    return query;
  }
}
