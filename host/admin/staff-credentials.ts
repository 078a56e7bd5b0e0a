import { Db } from '../../core/db/schema';
import { hashPassword, verifyPassword } from '../../core/kernel/password';

/** Staff who may use the administrative area: users linked to an active staff record with the admin role. */
export const ADMIN_ROLE = 'admin';

let decoyHash: Promise<string> | undefined;

/**
 * Checks a staff member's username and password; answers the user id, or null. An unknown
 * username costs the same scrypt work as a wrong password, so timing does not tell which usernames exist.
 */
export async function checkStaffCredentials(db: Db, username: string, password: string): Promise<number | null> {
  if (!username || !password || username.length > 255 || password.length > 1024) return null;
  const row = await db
    .selectFrom('users')
    .innerJoin('staff', 'staff.user_id', 'users.id')
    .select(['users.id', 'users.password'])
    .where('users.username', '=', username)
    .where('staff.role', '=', ADMIN_ROLE)
    .where('staff.status', '=', 'active')
    .executeTakeFirst();
  decoyHash ??= hashPassword('decoy password that matches nothing');
  const matches = await verifyPassword(password, row?.password ?? (await decoyHash));
  return row && matches ? row.id : null;
}

/** True when at least one staff member can sign in; the sign-in page explains how to create the first. */
export async function staffExists(db: Db): Promise<boolean> {
  const row = await db.selectFrom('staff').select('id').where('role', '=', ADMIN_ROLE).where('status', '=', 'active').limit(1).executeTakeFirst();
  return !!row;
}
