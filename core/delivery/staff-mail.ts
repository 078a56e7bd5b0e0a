import { Tx } from '../db/schema';
import { TallyError } from '../kernel/tally-error';
import { isMailAddress } from './header-safety';
import { queueTemplateMessage } from './queue-template-message';
import { subscribedStaffIds } from './staff-notices';

/**
 * Writes a staff email (`staff_module_error`, `staff_billing_run_report`) to the mail outbox in
 * the caller's transaction: one message to each active staff member of the company subscribed to
 * the action (staff/setNotices), addressed to them alone and with their name as {staff.*}. A
 * staff mail never stops what it reports: a message the outbox refuses (a 400: an email the
 * company set inactive answers null, a subject a module's name would break) is left out, before
 * anything of it is written. Answers how many messages were queued.
 */
export async function queueStaffMail(db: Tx, companyId: number, action: string, tags: Record<string, unknown>): Promise<number> {
  const ids = await subscribedStaffIds(db, companyId, action, 'to', 'active');
  if (!ids.length) return 0;
  const staff = await db.selectFrom('staff').select(['first_name', 'last_name', 'email']).where('id', 'in', ids).where('company_id', '=', companyId).orderBy('id').execute();
  let queued = 0;
  for (const member of staff) {
    if (!isMailAddress(member.email)) continue;
    try {
      const id = await queueTemplateMessage(db, { companyId, action, to: [member.email], tags: { staff: member, ...tags } });
      if (id !== null) queued++;
    } catch (error) {
      if (!(error instanceof TallyError && error.status === 400)) throw error;
    }
  }
  return queued;
}
