import { sql } from 'kysely';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { model } from '../kernel/model';
import { int, object, string } from '../kernel/parameter';
import { int as count, listOf, orFalse } from '../kernel/shape';
import { TallyError } from '../kernel/tally-error';
import { ordered, readOrder } from '../billing/ordering';
import { pageOffset } from '../billing/values';
import { effectiveSettings } from '../billing/owner-settings';
import { PAGE_SIZE } from '../kernel/paging';
import { SETTING } from './clients.fields';
import { STAFF_MEMBER } from './staff.fields';
import { presentStaff, staffQuery, StaffMemberRecord } from './staff/staff-listing';
import { StaffNotices } from './staff/staff-notices';
import { StaffLinks } from './staff/staff-links';

const ORDER: Record<string, string> = {
  id: 'staff.id',
  first_name: 'staff.first_name',
  last_name: 'staff.last_name',
  email: 'staff.email',
  username: 'users.username',
  status: 'staff.status',
};
const STATUSES = ['active', 'inactive'];

/**
 * The reference's Staff model, read methods (and its notices and quick links, the facets): the people who sign in to the administrative
 * area, with their staff group and the areas it lets them change (docs/admin.md). Staff are made,
 * disabled and given a password on the server (`tally staff`), and put in groups with
 * staff_groups/assign. `company_id` null means the caller's company; a company credential naming
 * another company reads a company without staff (false, [], 0), as every model answers it.
 */
@model('staff', { facets: [StaffNotices, StaffLinks] })
export class Staff {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description: 'A staff member with their group and permissions; false when there is none in that company.',
    verb: 'GET',
    params: [int('staff_id'), int('company_id', { default: null })],
    returns: orFalse(STAFF_MEMBER),
  })
  async get(staffId: number, companyId: number | null): Promise<StaffMemberRecord | false> {
    const query = this.query(companyId);
    const row = query && (await query.where('staff.id', '=', staffId).executeTakeFirst());
    return row ? presentStaff(row) : false;
  }

  @callable({
    description: 'The staff member who signs in as user user_id; false when there is none in that company.',
    verb: 'GET',
    params: [int('user_id'), int('company_id', { default: null })],
    returns: orFalse(STAFF_MEMBER),
  })
  async getByUserId(userId: number, companyId: number | null): Promise<StaffMemberRecord | false> {
    const query = this.query(companyId);
    const row = query && (await query.where('staff.user_id', '=', userId).orderBy('staff.id').executeTakeFirst());
    return row ? presentStaff(row) : false;
  }

  @callable({
    description: 'Every staff member of a company, by id: optionally only one status (active, inactive) or one staff group.',
    verb: 'GET',
    params: [int('company_id', { default: null }), string('status', { default: null }), int('staff_group_id', { default: null })],
    returns: listOf(STAFF_MEMBER),
  })
  async getAll(companyId: number | null, status: string | null, groupId: number | null): Promise<StaffMemberRecord[]> {
    let query = this.query(companyId, status);
    if (!query) return [];
    if (groupId !== null) query = query.where('staff.staff_group_id', '=', groupId);
    return (await query.orderBy('staff.id').execute()).map(presentStaff);
  }

  @callable({
    description: 'One page (25) of the staff of a company, optionally of one status; order_by[field]=ASC|DESC over id, first_name, last_name, email, username, status.',
    verb: 'GET',
    params: [int('company_id', { default: null }), string('status', { default: null }), int('page', { default: 1 }), object('order_by', { default: { id: 'ASC' } })],
    returns: listOf(STAFF_MEMBER),
  })
  async getList(companyId: number | null, status: string | null, page: number, orderBy: unknown): Promise<StaffMemberRecord[]> {
    const order = readOrder(orderBy, ORDER);
    const query = this.query(companyId, status);
    if (!query) return [];
    return (await ordered(query, order, 'staff.id').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute()).map(presentStaff);
  }

  @callable({ description: 'How many staff members getList pages through.', verb: 'GET', params: [int('company_id', { default: null }), string('status', { default: null })], returns: count() })
  async getListCount(companyId: number | null, status: string | null): Promise<number> {
    const query = this.query(companyId, status);
    if (!query) return 0;
    const row = await query
      .clearSelect()
      .select(sql<number>`count(*)`.as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  @callable({
    description:
      "One setting as it applies to a staff member ({key, value, encrypted, level}): staff members have no settings of their own, so it is their company's (company > system); false for an unknown key or staff member.",
    verb: 'GET',
    params: [int('staff_id'), string('key', { example: 'timezone' }), int('company_id', { default: null })],
    returns: orFalse(SETTING),
  })
  async getSetting(staffId: number, key: string, companyId: number | null) {
    const member = await this.get(staffId, companyId);
    if (!member) return false;
    return (await effectiveSettings(this.ctx.db, member.company_id, this.ctx.systemKey, [])).get(key) ?? false;
  }

  @callable({
    description: "The settings that apply to a staff member (their company's, company > system; secret settings left out); [] for an unknown staff member.",
    verb: 'GET',
    params: [int('staff_id'), int('company_id', { default: null })],
    returns: listOf(SETTING),
  })
  async getSettings(staffId: number, companyId: number | null) {
    const member = await this.get(staffId, companyId);
    if (!member) return [];
    return [...(await effectiveSettings(this.ctx.db, member.company_id, this.ctx.systemKey, [])).values()];
  }

  /** The staff of the company named (null: the caller's), or null when the caller does not reach it. */
  private query(companyId: number | null, status: string | null = null) {
    if (status !== null && !STATUSES.includes(status)) throw TallyError.invalid({ status: { valid: 'The status must be active or inactive.' } });
    const company = companyId ?? this.ctx.companyId;
    if (company !== this.ctx.companyId && !this.ctx.installationWide) return null;
    let query = staffQuery(this.ctx.db, company);
    if (status !== null) query = query.where('staff.status', '=', status);
    return query;
  }
}
