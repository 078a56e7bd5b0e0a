import { Db } from '../../core/db/schema';
import { hashPassword, verifyPassword } from '../../core/kernel/password';

/** Who signed in: a client as itself, or one of its contacts (contactId). */
export interface ClientLogin {
  readonly userId: number;
  readonly companyId: number;
  readonly clientId: number;
  readonly contactId: number | null;
}

let decoyHash: Promise<string> | undefined;

/**
 * Checks a username and password for the client area: the login of an active client (clients.user_id)
 * or of a contact of one (contacts.user_id, the reference's contact logins). An unknown username
 * costs the same scrypt work as a wrong password, so timing does not tell which usernames exist.
 */
export async function checkClientCredentials(db: Db, username: string, password: string): Promise<ClientLogin | null> {
  if (!username || !password || username.length > 255 || password.length > 1024) return null;
  const user = await db.selectFrom('users').select(['id', 'password']).where('username', '=', username).executeTakeFirst();
  decoyHash ??= hashPassword('decoy password that matches nothing');
  const matches = await verifyPassword(password, user?.password ?? (await decoyHash));
  if (!user || !matches) return null;
  return loginOf(db, user.id);
}

/** What a user id signs in as: its own active client first, else the first active client it is a contact of. */
export async function loginOf(db: Db, userId: number): Promise<ClientLogin | null> {
  const client = await db.selectFrom('clients').select(['id', 'company_id']).where('user_id', '=', userId).where('status', '=', 'active').orderBy('id').executeTakeFirst();
  if (client) return { userId, companyId: client.company_id, clientId: client.id, contactId: null };
  const contact = await db
    .selectFrom('contacts')
    .innerJoin('clients', 'clients.id', 'contacts.client_id')
    .select(['contacts.id', 'clients.id as client_id', 'clients.company_id'])
    .where('contacts.user_id', '=', userId)
    .where('clients.status', '=', 'active')
    .orderBy('contacts.id')
    .executeTakeFirst();
  return contact ? { userId, companyId: contact.company_id, clientId: contact.client_id, contactId: contact.id } : null;
}
