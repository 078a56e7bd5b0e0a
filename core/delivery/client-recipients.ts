import { Tx } from '../db/schema';

export interface Recipient {
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
  readonly company: string | null;
}

/**
 * Who a client's billing mail goes to, as the reference sends it: its billing contacts with an
 * email address, else its primary contact. Answers the contact the tags name ({contact.*}: the
 * first of them) and every address.
 */
export async function billingRecipients(db: Tx, clientId: number): Promise<{ contact: Recipient; to: string[] } | null> {
  const rows = await db
    .selectFrom('contacts')
    .select(['contact_type', 'first_name', 'last_name', 'email', 'company'])
    .where('client_id', '=', clientId)
    .where('contact_type', 'in', ['primary', 'billing'])
    .orderBy('id')
    .execute();
  const withEmail = rows.filter((r) => typeof r.email === 'string' && r.email !== '');
  const billing = withEmail.filter((r) => r.contact_type === 'billing');
  const chosen = billing.length ? billing : withEmail.filter((r) => r.contact_type === 'primary');
  if (!chosen.length) return null;
  const first = chosen[0];
  return { contact: { first_name: first.first_name, last_name: first.last_name, email: first.email, company: first.company ?? null }, to: [...new Set(chosen.map((r) => r.email))] };
}
