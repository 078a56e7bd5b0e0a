import { Tx } from '../db/schema';
import { isMailAddress } from './header-safety';
import { mailDb } from './mail-tables';

export type NoticeType = 'all' | 'bcc' | 'to';

/**
 * The reference's staff notices: a staff member subscribes to email actions (staff/setNotices), and
 * receives the company's mail of those actions as its group's notice_type says: a staff email
 * (`to`) is addressed to them, a client email (`bcc`) comes to them as a blind copy. The ids of
 * the company's staff subscribed to `action` (of that notice type, unless `all`), by id.
 */
export async function subscribedStaffIds(db: Tx, companyId: number, action: string, noticeType: NoticeType, status: string | null): Promise<number[]> {
  let query = db
    .selectFrom('staff_notices')
    .innerJoin('staff', 'staff.id', 'staff_notices.staff_id')
    .select('staff.id')
    .where('staff_notices.company_id', '=', companyId)
    .where('staff.company_id', '=', companyId)
    .where('staff_notices.action', '=', action);
  if (status !== null) query = query.where('staff.status', '=', status);
  if (noticeType !== 'all') {
    const groups = mailDb(db)
      .selectFrom('email_groups')
      .select('action')
      .where('notice_type', '=', noticeType)
      .where((eb) => eb.or([eb('company_id', 'is', null), eb('company_id', '=', companyId)]));
    query = query.where('staff_notices.action', 'in', groups);
  }
  return (await query.orderBy('staff.id').execute()).map((row) => row.id);
}

/** The addresses of the company's active staff who take a blind copy of `action`'s mail (at most `room`). */
export async function noticeCopies(db: Tx, companyId: number, action: string, room: number): Promise<string[]> {
  const ids = await subscribedStaffIds(db, companyId, action, 'bcc', 'active');
  if (!ids.length || room <= 0) return [];
  const rows = await db.selectFrom('staff').select('email').where('id', 'in', ids).orderBy('id').execute();
  return rows
    .map((row) => row.email)
    .filter(isMailAddress)
    .slice(0, room);
}
