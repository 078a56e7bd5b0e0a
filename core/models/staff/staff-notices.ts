import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { bool, int, list, string } from '../../kernel/parameter';
import { int as count, listOf, nothing, record, string as text } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { groupQuery } from '../../delivery/email-group-store';
import { NoticeType, subscribedStaffIds } from '../../delivery/staff-notices';
import { STAFF_MEMBER } from '../staff.fields';
import { presentStaff, staffQuery } from './staff-listing';

const NOTICE = record({ staff_group_id: count({ nullable: true }), staff_id: count(), action: text({ description: 'The email group action (emails/getGroups).' }) });
const NOTICE_TYPES: readonly string[] = ['all', 'bcc', 'to'];
const MOST_ACTIONS = 200;

/**
 * The reference's staff notices: which of the company's emails each staff member receives. A
 * member subscribes to email group actions that have a notice type (every core group does: staff
 * emails are addressed to them, client emails come as a blind copy); the mail of those actions
 * then reaches them (core/delivery/staff-notices.ts).
 */
@facet('staff')
export class StaffNotices {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    verb: 'GET',
    params: [int('staff_id'), int('staff_group_id', { default: null }), bool('group_by_action', { default: true })],
    returns: listOf(NOTICE),
    description:
      "The email actions a staff member of the company is subscribed to (of their staff group when given); another company's member has none. group_by_action changes nothing: a member subscribes to an action once.",
  })
  async getNotices(staffId: number, staffGroupId: number | null, _groupByAction: boolean) {
    let query = this.ctx.db.selectFrom('staff_notices').select(['staff_group_id', 'staff_id', 'action']).where('company_id', '=', this.ctx.companyId).where('staff_id', '=', staffId);
    if (staffGroupId !== null) query = query.where('staff_group_id', '=', staffGroupId);
    return query.orderBy('action').execute();
  }

  @callable({
    verb: 'PUT',
    params: [int('staff_id'), list('actions')],
    returns: nothing(),
    description:
      "Tally's own: subscribe a staff member of the company to exactly these email actions (actions[]=invoice_delivery_paid&actions[]=staff_module_error; an empty value for none). Each must be an email group of the company with a notice type (emails/getGroups).",
  })
  async setNotices(staffId: number, actions: unknown[]) {
    const member = await this.ctx.db.selectFrom('staff').select(['id', 'staff_group_id']).where('id', '=', staffId).where('company_id', '=', this.ctx.companyId).executeTakeFirst();
    if (!member) throw TallyError.invalid({ staff_id: { exists: 'Invalid staff ID.' } });
    const wanted = [...new Set(actions.filter((a) => a !== '' && a !== null).map((a) => (typeof a === 'string' ? a.trim() : '')))];
    if (wanted.length > MOST_ACTIONS) throw TallyError.invalid({ actions: { length: `At most ${MOST_ACTIONS} actions.` } });
    const known = new Set((await groupQuery(this.ctx.db, this.ctx.companyId).where('notice_type', 'is not', null).execute()).map((g) => g.action));
    const unknown = wanted.filter((a) => !known.has(a));
    if (unknown.length)
      throw TallyError.invalid({ actions: { valid: `Not an email action staff can be notified of: ${unknown.map((a) => JSON.stringify(a.slice(0, 64))).join(', ')} (emails/getGroups lists them).` } });
    await this.ctx.db.deleteFrom('staff_notices').where('company_id', '=', this.ctx.companyId).where('staff_id', '=', staffId).execute();
    for (const action of wanted) {
      await this.ctx.db.insertInto('staff_notices').values({ company_id: this.ctx.companyId, staff_id: staffId, staff_group_id: member.staff_group_id, action }).execute();
    }
    return null;
  }

  @callable({
    verb: 'GET',
    params: [string('action'), int('company_id'), string('notice_type', { default: 'all' }), string('status', { default: null })],
    returns: listOf(STAFF_MEMBER),
    description: "The company's staff subscribed to an email action: notice_type all, bcc or to (the action's group's), status active or inactive. Another company lists none.",
  })
  async getAllByEmailAction(action: string, companyId: number, noticeType: string, status: string | null) {
    if (!NOTICE_TYPES.includes(noticeType)) throw TallyError.invalid({ notice_type: { valid: 'The notice type must be all, bcc or to.' } });
    if (status !== null && !['active', 'inactive'].includes(status)) throw TallyError.invalid({ status: { valid: 'The status must be active or inactive.' } });
    if (companyId !== this.ctx.companyId && !this.ctx.installationWide) return [];
    const ids = await subscribedStaffIds(this.ctx.db, companyId, action, noticeType as NoticeType, status);
    if (!ids.length) return [];
    return (await staffQuery(this.ctx.db, companyId).where('staff.id', 'in', ids).orderBy('staff.id').execute()).map(presentStaff);
  }
}
