import { Installation } from '../../core/installation';
import { assertValid, is } from '../../core/kernel/input-rules';
import { ADMIN_ROLE } from './staff-credentials';

export interface NewStaffMember {
  readonly username: string;
  readonly password: string;
  readonly email: string;
  readonly companyId: number;
  readonly firstName?: string;
  readonly lastName?: string;
}

/**
 * Creates a staff member who may sign in to the administrative area: a user (through the users
 * model, so its username and password rules apply) and its admin staff record, in one transaction.
 * Answers the user id; invalid input is a TallyError with field errors, and nothing is written.
 */
export async function createStaffMember(installation: Installation, member: NewStaffMember): Promise<number> {
  return installation.db.transaction().execute(async (trx) => {
    await assertValid(
      { email: member.email, company_id: member.companyId },
      {
        email: [{ code: 'format', message: 'Please enter a valid email address.', check: is.email }],
        company_id: [
          {
            code: 'exists',
            message: 'Invalid company ID.',
            check: async (id) => !!(await trx.selectFrom('companies').select('id').where('id', '=', Number(id)).executeTakeFirst()),
          },
        ],
      },
    );
    const vars = { username: member.username, new_password: member.password, confirm_password: member.password, recovery_email: member.email };
    const caller = { companyId: member.companyId, user: 'admin' };
    const userId = (await installation.call('users', 'add', { vars }, caller, { via: 'admin', within: { db: trx } })) as number;
    await trx
      .insertInto('staff')
      .values({
        user_id: userId,
        company_id: member.companyId,
        first_name: member.firstName ?? '',
        last_name: member.lastName ?? '',
        email: member.email.trim(),
        role: ADMIN_ROLE,
        status: 'active',
      })
      .execute();
    return userId;
  });
}
