import { Tx } from '../db/schema';
import { TallyError } from '../kernel/tally-error';

export const invalidAccount = () => TallyError.invalid({ account_id: { exists: 'Invalid account ID.' } });

/** Card brands as the reference names them. */
export const CC_TYPES: Record<string, string> = { amex: 'American Express', visa: 'Visa', mc: 'MasterCard', other: 'Other' };

/** Bank account types as the reference names them. */
export const ACH_TYPES: Record<string, string> = { checking: 'Checking', savings: 'Savings' };

/** `cc` or `ach`: the reference keeps them apart (getCc never answers a bank account). */
export type AccountKind = 'cc' | 'ach';

const COLUMNS = ['id', 'client_id', 'contact_id', 'type', 'first_name', 'last_name', 'gateway', 'reference_id', 'last4', 'card_type', 'expiration', 'currency', 'status', 'date_added'] as const;

export function accountQuery(db: Tx, companyId: number) {
  return db.selectFrom('accounts').select(COLUMNS).where('company_id', '=', companyId);
}

type Row = Awaited<ReturnType<ReturnType<typeof accountQuery>['executeTakeFirstOrThrow']>>;

/** An account as the API shows it: the gateway's token and the last four digits, never a number. */
export function presentAccount(row: Row, autodebitAccountId: number | null) {
  return {
    id: row.id,
    client_id: row.client_id,
    contact_id: row.contact_id,
    account_type: row.type,
    type: row.card_type,
    type_name: (row.type === 'ach' ? ACH_TYPES : CC_TYPES)[row.card_type ?? 'other'] ?? 'Other',
    first_name: row.first_name,
    last_name: row.last_name,
    last4: row.last4,
    expiration: row.expiration,
    gateway: row.gateway,
    reference_id: row.reference_id,
    currency: row.currency,
    status: row.status,
    autodebit: row.id === autodebitAccountId,
    date_added: row.date_added,
  };
}

export async function autodebitAccountOf(db: Tx, clientId: number): Promise<number | null> {
  const row = await db.selectFrom('client_autodebit').select('account_id').where('client_id', '=', clientId).executeTakeFirst();
  return row?.account_id ?? null;
}

/** Makes an active account of the client its autodebit account (one per client), resetting failures. */
export async function setAutodebitAccount(db: Tx, clientId: number, accountId: number): Promise<void> {
  await db
    .insertInto('client_autodebit')
    .values({ client_id: clientId, account_id: accountId, failures: 0 })
    .onConflict((oc) => oc.column('client_id').doUpdateSet({ account_id: accountId, failures: 0 }))
    .execute();
}
