import { containsPattern } from '../db/contains-pattern';
import { sql } from 'kysely';
import { idIn } from '../db/id-list';
import { Tx } from '../db/schema';
import { reusedSelect } from '../kernel/reused-select';
import { TallyError } from '../kernel/tally-error';
import { CONTACT_COLUMNS } from './contact-fields';

export const CLIENT_STATUSES = ['active', 'inactive', 'fraud'] as const;

/** Fields getList and getAll may order by (the reference's default is id_code). */
export const CLIENT_ORDER: Record<string, string> = {
  id_code: 'clients.id_value',
  id: 'clients.id',
  first_name: 'contacts.first_name',
  last_name: 'contacts.last_name',
  company: 'contacts.company',
  email: 'contacts.email',
  status: 'clients.status',
  date_added: 'clients.date_added',
};

/**
 * A client merged with its primary contact, as the reference's clients/get answers it. A client
 * added bare (clients/add with only user_id, as the reference allows) has no primary contact yet:
 * its contact fields are null.
 */
export function clientQuery(db: Tx, companyId: number, ids?: readonly number[]) {
  const query = db
    .selectFrom('clients')
    // Given ids, the join is told them too: PostgreSQL then looks their contacts up by client
    // instead of hashing every contact of the installation (a billing run's batch of 50 clients).
    .leftJoin('contacts', (join) => {
      const primary = join.onRef('contacts.client_id', '=', 'clients.id').on('contacts.contact_type', '=', 'primary');
      return ids ? primary.on(idIn(db, 'contacts.client_id', ids)) : primary;
    })
    // The reference's primary account is the client's debit account (the one the run charges).
    .leftJoin('client_autodebit', 'client_autodebit.client_id', 'clients.id')
    .leftJoin('accounts', 'accounts.id', 'client_autodebit.account_id')
    .select([
      'clients.id',
      'clients.id_format',
      'clients.id_value',
      'clients.user_id',
      'clients.client_group_id',
      'clients.status',
      'clients.company_id',
      'clients.date_added',
      'client_autodebit.account_id as primary_account_id',
      'accounts.type as primary_account_type',
      'contacts.id as contact_id',
      ...CONTACT_COLUMNS,
    ])
    .where('clients.company_id', '=', companyId);
  return ids ? query.where(idIn(db, 'clients.id', ids)) : query;
}

type ClientRow = Awaited<ReturnType<ReturnType<typeof clientQuery>['executeTakeFirstOrThrow']>>;

/** The reference's display number: id_format with `{num}` replaced by id_value. */
export function idCode(format: string, value: number | string | null, id: number): string {
  return format.split('{num}').join(String(value ?? id));
}

/** A client as the API shows it, in the reference's field order. */
export function presentClient(row: ClientRow) {
  const { id, id_format, id_value, primary_account_id, primary_account_type, ...rest } = row;
  const value = id_value === null ? id : Number(id_value);
  return {
    id,
    id_format,
    id_value: value,
    id_code: idCode(id_format, value, id),
    primary_account_id,
    primary_account_type,
    ...rest,
  };
}

/** A client of the company, or undefined: another company's client is as absent as a missing one. */
export async function findClient(db: Tx, companyId: number, clientId: number) {
  const row = await clientQuery(db, companyId).where('clients.id', '=', clientId).executeTakeFirst();
  return row && presentClient(row);
}

/**
 * Where a client of the company is, for its taxes (its primary contact's country and state, null
 * without one), or undefined: what billing a client needs, without the rest of findClient's record.
 */
export async function findClientLocation(db: Tx, companyId: number, clientId: number) {
  const [row] = await clientLocation(db, companyId, clientId);
  return row as typeof row | undefined;
}

const clientLocation = reusedSelect((db: Tx, companyId: number, clientId: number) =>
  db
    .selectFrom('clients')
    .leftJoin('contacts', (join) => join.onRef('contacts.client_id', '=', 'clients.id').on('contacts.contact_type', '=', 'primary'))
    .select(['clients.id', 'contacts.country', 'contacts.state'])
    .where('clients.company_id', '=', companyId)
    .where('clients.id', '=', clientId),
);

export const invalidClient = () => TallyError.invalid({ client_id: { exists: 'Invalid client ID.' } });

/** The id of a client of the company, or the 400 `client_id.exists` (another company's client is no client here). */
/** The client of the caller's company, or the reference's 400 client_id.exists. */
export async function requireClient(db: Tx, companyId: number, clientId: number) {
  const client = await findClient(db, companyId, clientId);
  if (!client) throw invalidClient();
  return client;
}

export async function requireClientId(db: Tx, companyId: number, clientId: number): Promise<number> {
  const row = await db.selectFrom('clients').select('id').where('company_id', '=', companyId).where('id', '=', clientId).executeTakeFirst();
  if (!row) throw invalidClient();
  return row.id;
}

/** Free-text search over the display number, names, company and email (case-insensitive). */
export function matching<Q extends { where(...args: any[]): Q }>(query: Q, text: string): Q {
  const like = containsPattern(text);
  const column = (name: string) => sql`lower(coalesce(${sql.ref(name)}, ''))`;
  return query.where((eb: any) =>
    eb.or([
      eb(sql`lower(replace(clients.id_format, '{num}', cast(coalesce(clients.id_value, clients.id) as varchar(32))))`, 'like', like),
      ...['contacts.first_name', 'contacts.last_name', 'contacts.company', 'contacts.email'].map((name) => eb(column(name), 'like', like)),
      eb(sql`lower(coalesce(contacts.first_name, '') || ' ' || coalesce(contacts.last_name, ''))`, 'like', like),
    ]),
  );
}
