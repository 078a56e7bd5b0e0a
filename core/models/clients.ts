import { Tx } from '../db/schema';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { assertValid, is, RuleSet } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { int, object, string } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { formatUtc } from '../kernel/timestamps';
import { CONTACT_COLUMNS, contactRules, contactValues, userExists } from './billing/contact-fields';
import { optionalText, pageOffset, wholeNumber } from './billing/values';
import { int as count, listOf, nothing, orNull } from '../kernel/shape';
import { CLIENT, CLIENT_ADD, CLIENT_EDIT } from './clients.fields';

const PAGE_SIZE = 25;
const STATUSES = ['active', 'inactive', 'fraud'] as const;

/** A client with its primary contact's name, email and address, as the API shows it. */
function clientQuery(db: Tx, companyId: number) {
  return db
    .selectFrom('clients')
    .innerJoin('contacts', (join) => join.onRef('contacts.client_id', '=', 'clients.id').on('contacts.contact_type', '=', 'primary'))
    .select([
      'clients.id',
      'clients.company_id',
      'clients.user_id',
      'clients.status',
      'clients.date_added',
      'contacts.id as contact_id',
      ...CONTACT_COLUMNS,
    ])
    .where('clients.company_id', '=', companyId);
}

/** A client of the company, or undefined: another company's client is as absent as a missing one. */
export function findClient(db: Tx, companyId: number, clientId: number) {
  return clientQuery(db, companyId).where('clients.id', '=', clientId).executeTakeFirst();
}

export const invalidClient = () => TallyError.invalid({ client_id: { exists: 'Invalid client ID.' } });

/**
 * The clients of the caller's company. A client's name, email and address are those of its primary
 * contact (created with it), as the reference system keeps them; other contacts are in `contacts`.
 */
@model('clients')
export class Clients {
  constructor(private readonly ctx: CallContext) {}

  @callable({ description: 'Fetch a client with its primary contact\'s details; null when the caller\'s company has no such client.', verb: 'GET', params: [int('client_id')], returns: orNull(CLIENT) })
  async get(clientId: number) {
    return (await findClient(this.ctx.db, this.ctx.companyId, clientId)) ?? null;
  }

  @callable({ description: 'One page (25) of the company\'s clients by id, optionally only those of one status (active, inactive, fraud).', verb: 'GET', params: [string('status', { default: null }), int('page', { default: 1 })], returns: listOf(CLIENT) })
  async getList(status: string | null, page: number) {
    let query = clientQuery(this.ctx.db, this.ctx.companyId);
    if (status !== null) query = query.where('clients.status', '=', status);
    return query.orderBy('clients.id').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
  }

  @callable({ description: 'Count the company\'s clients, optionally of one status.', verb: 'GET', params: [string('status', { default: null })], returns: count() })
  async getListCount(status: string | null) {
    let query = this.ctx.db.selectFrom('clients').select((eb) => eb.fn.countAll<number>().as('count')).where('company_id', '=', this.ctx.companyId);
    if (status !== null) query = query.where('status', '=', status);
    return Number((await query.executeTakeFirstOrThrow()).count);
  }

  @callable({
    description:
      'Create a client from vars[first_name], vars[last_name], vars[email] and optional vars[user_id], vars[status] (active, inactive, fraud), vars[company], vars[address1], vars[address2], vars[city], vars[state], vars[zip], vars[country] (ISO codes; taxes are matched on them). Returns the client id.',
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: CLIENT_ADD,
    returns: count({ description: 'The new client id.' }),
  })
  async add(vars: Record<string, unknown>) {
    await assertValid(vars, { ...contactRules(false), ...this.clientRules() });
    const now = formatUtc(new Date());
    const client = await this.ctx.db
      .insertInto('clients')
      .values({ company_id: this.ctx.companyId, user_id: wholeNumber(vars.user_id), status: optionalText(vars.status) ?? 'active', date_added: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.ctx.db
      .insertInto('contacts')
      .values({ first_name: '', last_name: '', email: '', ...contactValues(vars), client_id: client.id, user_id: null, contact_type: 'primary', date_added: now })
      .execute();
    return client.id;
  }

  @callable({ description: 'Change any of the fields clients/add takes. Returns the client.', verb: 'PUT', params: [int('client_id'), object('vars')], vars: CLIENT_EDIT, returns: CLIENT })
  async edit(clientId: number, vars: Record<string, unknown>) {
    const client = await this.get(clientId);
    if (!client) throw invalidClient();
    await assertValid(vars, { ...contactRules(true), ...this.clientRules() });
    const changes: { user_id?: number | null; status?: string } = {};
    if (vars.user_id !== undefined) changes.user_id = wholeNumber(vars.user_id);
    if (vars.status !== undefined) changes.status = String(vars.status);
    if (Object.keys(changes).length) await this.ctx.db.updateTable('clients').set(changes).where('id', '=', clientId).execute();
    const contact = contactValues(vars);
    if (Object.keys(contact).length) await this.ctx.db.updateTable('contacts').set(contact).where('id', '=', client.contact_id).execute();
    return this.get(clientId);
  }

  @callable({ description: 'Delete a client and its contacts. A client with invoices or transactions is kept (400 client_id.in_use).', verb: 'DELETE', params: [int('client_id')], returns: nothing() })
  async delete(clientId: number) {
    if (!(await this.get(clientId))) throw invalidClient();
    const db = this.ctx.db;
    const billed =
      (await db.selectFrom('invoices').select('id').where('client_id', '=', clientId).executeTakeFirst()) ??
      (await db.selectFrom('transactions').select('id').where('client_id', '=', clientId).executeTakeFirst());
    if (billed) throw TallyError.invalid({ client_id: { in_use: 'The client cannot be deleted because it has invoices or transactions.' } });
    await db.deleteFrom('contacts').where('client_id', '=', clientId).execute();
    await db.deleteFrom('clients').where('id', '=', clientId).execute();
    return null;
  }

  private clientRules(): RuleSet {
    return {
      user_id: { ifSet: true, rules: [userExists(this.ctx)] },
      status: { ifSet: true, rules: [{ code: 'format', message: 'Invalid status.', check: is.oneOf(STATUSES) }] },
    };
  }
}
