import { Installation } from '../../core/installation';
import { assertValid, is } from '../../core/kernel/input-rules';
import { TallyError } from '../../core/kernel/tally-error';
import { adminDb } from './admin-tables';
import { SignInLockout } from '../web/sign-in-lockout';
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
  return installation.inTransaction(async ({ db: trx, afterCommit }) => {
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
    const userId = (await installation.call('users', 'add', { vars }, caller, { via: 'admin', within: { db: trx, afterCommit } })) as number;
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

export interface StaffListing {
  readonly id: number;
  readonly user_id: number;
  readonly username: string;
  readonly email: string;
  readonly company_id: number;
  readonly role: string;
  readonly status: string;
}

/** Every staff member, by id, with the user name they sign in with. */
export function listStaff(installation: Installation): Promise<StaffListing[]> {
  return installation.db
    .selectFrom('staff')
    .innerJoin('users', 'users.id', 'staff.user_id')
    .select(['staff.id', 'staff.user_id', 'users.username', 'staff.email', 'staff.company_id', 'staff.role', 'staff.status'])
    .orderBy('staff.id')
    .execute();
}

/** The staff member signing in as `username`; a clear error when there is none. */
export async function findStaffMember(installation: Installation, username: string): Promise<StaffListing> {
  const found = (await listStaff(installation)).find((s) => s.username === username);
  if (!found) throw TallyError.invalid({ username: { exists: `No staff member signs in as "${username}" (see tally staff list).` } });
  return found;
}

/**
 * Disables or re-enables a staff member. A disabled one cannot sign in, and their open sessions end
 * at once (sessions are only valid for active staff, and are deleted here besides).
 */
export async function setStaffStatus(installation: Installation, username: string, status: 'active' | 'inactive'): Promise<StaffListing> {
  const member = await findStaffMember(installation, username);
  await installation.db.transaction().execute(async (trx) => {
    await trx.updateTable('staff').set({ status }).where('id', '=', member.id).execute();
    if (status === 'inactive') await adminDb(trx).deleteFrom('admin_sessions').where('user_id', '=', member.user_id).execute();
  });
  return { ...member, status };
}

/**
 * Sets a new password (the users model's rules apply), ends the member's sessions everywhere and
 * lifts their lock-out: the way back in for a forgotten password.
 */
export async function resetStaffPassword(installation: Installation, username: string, password: string): Promise<StaffListing> {
  const member = await findStaffMember(installation, username);
  await installation.inTransaction(async ({ db: trx, afterCommit }) => {
    const vars = { new_password: password, confirm_password: password };
    await installation.call('users', 'edit', { user_id: member.user_id, vars }, { companyId: member.company_id, user: 'admin' }, { via: 'admin', within: { db: trx, afterCommit } });
    await adminDb(trx).deleteFrom('admin_sessions').where('user_id', '=', member.user_id).execute();
  });
  await new SignInLockout(installation.db).unlock(username);
  return member;
}

/** Lifts the sign-in lock-out of a username (failures from addresses stay counted). */
export async function unlockStaffMember(installation: Installation, username: string): Promise<StaffListing> {
  const member = await findStaffMember(installation, username);
  await new SignInLockout(installation.db).unlock(username);
  return member;
}
