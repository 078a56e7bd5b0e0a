import { ClientMailLog } from './clients/client-mail-log';
import { sql } from 'kysely';
import { ClientRestrictedPackages } from './clients/restricted-packages';
import { deleteRecurringRows } from '../billing/recurring-invoice-removal';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { assertValid, is, RuleSet } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { bool, int, object, string } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { formatUtc } from '../kernel/timestamps';
import { CONTACT_FIELDS, contactRules, contactValues, userExists } from '../billing/contact-fields';
import { ordered, readFilters, readOrder } from '../billing/ordering';
import { ownSettingsRules, setOwnSettings, valuesOf } from '../billing/owner-settings';
import { optionalText, pageOffset, wholeNumber } from '../billing/values';
import { clientGroupExists, defaultGroupId } from '../billing/group-store';
import { CLIENT_ORDER, CLIENT_STATUSES, clientQuery, findClient, matching, presentClient, requireClient } from '../billing/client-store';
import { ClientCustomFields } from './clients/client-custom-fields';
import { ClientDebitAccount } from './clients/client-debit-account';
import { clientSettings, ClientSettingsAndNotes } from './clients/client-settings-and-notes';
import { addNumbers } from '../billing/contact-numbers';
import { PAGE_SIZE } from '../kernel/paging';
import { ModelCalls } from '../kernel/model-calls';
import { int as count, listOf, mapOf, nothing, orFalse, string as text } from '../kernel/shape';
import { CLIENT, CLIENT_ADD, CLIENT_CREATE, CLIENT_EDIT, CLIENT_WITH_SETTINGS, CLIENTS } from './clients.fields';
import { emit } from '../events/emit';

export { findClient, invalidClient } from '../billing/client-store';

const STATUS_TYPES = { active: 'Active', inactive: 'Inactive', fraud: 'Fraud' };
const FILTERS = ['client_group_id'] as const;

/**
 * The clients of the caller's company, as the reference system's Clients model: a client row
 * (login, group, status, display number) merged with its primary contact (name, email, address).
 * Its other methods are in its facets, one concern each: settings and staff notes
 * (clients/client-settings-and-notes.ts), custom fields (clients/client-custom-fields.ts) and the
 * autodebit account (clients/client-debit-account.ts) and restricted package access
 * (clients/restricted-packages.ts).
 */
@model('clients', { facets: [ClientSettingsAndNotes, ClientCustomFields, ClientDebitAccount, ClientRestrictedPackages, ClientMailLog] })
export class Clients {
  constructor(
    private readonly ctx: CallContext,
    private readonly calls: ModelCalls,
    private readonly customFields: ClientCustomFields,
  ) {}

  @callable({
    description: "A client with its primary contact's details and, unless get_settings is false, its effective settings; false when the caller's company has no such client.",
    verb: 'GET',
    params: [int('client_id'), bool('get_settings', { default: true })],
    returns: orFalse(CLIENT_WITH_SETTINGS),
  })
  async get(clientId: number, getSettings: boolean) {
    const client = await findClient(this.ctx.db, this.ctx.companyId, clientId);
    if (!client) return false;
    return getSettings ? { ...client, settings: valuesOf(await clientSettings(this.ctx, client)) } : client;
  }

  @callable({
    description: "The company's client whose login is user_id; false when there is none.",
    verb: 'GET',
    params: [int('user_id'), bool('get_settings', { default: false })],
    returns: orFalse(CLIENT_WITH_SETTINGS),
  })
  async getByUserId(userId: number, getSettings: boolean) {
    const row = await clientQuery(this.ctx.db, this.ctx.companyId).where('clients.user_id', '=', userId).orderBy('clients.id').executeTakeFirst();
    return row ? this.get(row.id, getSettings) : false;
  }

  @callable({
    description:
      'One page (25) of clients, optionally of one status (active, inactive, fraud); order_by[field]=ASC|DESC over id_code, id, first_name, last_name, company, email, status, date_added; filters[client_group_id].',
    verb: 'GET',
    params: [string('status', { default: null }), int('page', { default: 1 }), object('order_by', { default: { id_code: 'ASC' } }), object('filters', { default: [] })],
    returns: CLIENTS,
  })
  async getList(status: string | null, page: number, orderBy: unknown, filters: unknown) {
    const query = ordered(this.listed(status, filters), readOrder(orderBy, CLIENT_ORDER), 'clients.id');
    return (await query.limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute()).map(presentClient);
  }

  @callable({
    description: 'How many clients getList lists for the same status and filters.',
    verb: 'GET',
    params: [string('status', { default: null }), object('filters', { default: [] })],
    returns: count(),
  })
  async getListCount(status: string | null, filters: unknown) {
    return this.count(this.listed(status, filters));
  }

  @callable({
    description: 'Every client, optionally of one status and one client group, by display number; with settings when get_settings is true.',
    verb: 'GET',
    params: [string('status', { default: null }), int('client_group_id', { default: null }), bool('get_settings', { default: false })],
    returns: listOf(CLIENT_WITH_SETTINGS),
  })
  async getAll(status: string | null, clientGroupId: number | null, getSettings: boolean) {
    let query = this.listed(status, {});
    if (clientGroupId !== null) query = query.where('clients.client_group_id', '=', clientGroupId);
    const rows = (await ordered(query, [['clients.id_value', 'asc']], 'clients.id').execute()).map(presentClient);
    if (!getSettings) return rows;
    return Promise.all(rows.map(async (client) => ({ ...client, settings: valuesOf(await clientSettings(this.ctx, client)) })));
  }

  @callable({ description: 'How many clients have a status (default active).', verb: 'GET', params: [string('status', { default: 'active' }), object('filters', { default: [] })], returns: count() })
  async getStatusCount(status: string, filters: unknown) {
    return this.count(this.listed(status, filters));
  }

  @callable({ description: 'The client statuses and their names.', verb: 'GET', returns: mapOf(text()) })
  async getStatusTypes() {
    return STATUS_TYPES;
  }

  @callable({
    description: 'One page (25) of clients whose display number, name, company or email contains query.',
    verb: 'GET',
    params: [string('query'), int('page', { default: 1 })],
    returns: CLIENTS,
  })
  async search(query: string, page: number) {
    const rows = await matching(clientQuery(this.ctx.db, this.ctx.companyId), query).orderBy('clients.id').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
    return rows.map(presentClient);
  }

  @callable({ description: 'How many clients search finds for query.', verb: 'GET', params: [string('query')], returns: count() })
  async getSearchCount(query: string) {
    return this.count(matching(clientQuery(this.ctx.db, this.ctx.companyId), query));
  }

  @callable({ description: 'The currency codes a client has been invoiced or paid in.', verb: 'GET', params: [int('client_id')], returns: listOf(text()) })
  async usedCurrencies(clientId: number) {
    await requireClient(this.ctx.db, this.ctx.companyId, clientId);
    const rows = await this.ctx.db
      .selectFrom('invoices')
      .select('currency')
      .where('client_id', '=', clientId)
      .union(this.ctx.db.selectFrom('transactions').select('currency').where('client_id', '=', clientId))
      .execute();
    return [...new Set(rows.map((r) => r.currency))].sort();
  }

  @callable({
    description:
      'Sign a client up in one call: a login (vars[username], vars[new_password], vars[confirm_password], optional vars[recovery_email]), the client (vars[client_group_id], vars[status]) and its primary contact (vars[first_name], vars[last_name], vars[email], vars[title], vars[company], address fields, vars[numbers][i][number|type|location]), vars[settings][key]=value and vars[custom][field_id]=value. Returns the client.',
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: CLIENT_CREATE,
    returns: CLIENT,
  })
  async create(vars: Record<string, unknown>) {
    // vars[settings] is checked as clients/setSettings checks it: a billing value the run cannot read is refused here too.
    const settings = vars.settings && typeof vars.settings === 'object' ? (vars.settings as Record<string, unknown>) : {};
    await assertValid(vars, { ...contactRules(false), ...this.clientRules(), ...ownSettingsRules(settings, (key) => `settings[${key}]`) });
    // The login is made by users/add itself, with its rules and messages (username.unique, ...).
    const login = { username: vars.username, new_password: vars.new_password, confirm_password: vars.confirm_password, recovery_email: vars.recovery_email };
    const userId = (await this.calls.call(this.ctx, 'users', 'add', { vars: JSON.parse(JSON.stringify(login)) })) as number;
    const clientId = await this.add({ ...vars, user_id: userId });
    await setOwnSettings(this.ctx.db, 'client', clientId, settings, null, this.ctx.systemKey);
    await this.customFields.setCustomValues(clientId, vars.custom);
    return this.get(clientId, false);
  }

  @callable({
    description:
      "Add a client: optional vars[user_id] (its login), vars[client_group_id] (default: the company's default group), vars[id_code] (a display number), vars[status] (active, inactive, fraud). With vars[first_name], vars[last_name], vars[email] (and vars[title], vars[company], address fields with ISO country and state codes, vars[numbers]) it also gets its primary contact. Returns the client id.",
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: CLIENT_ADD,
    returns: count({ description: 'The new client id.' }),
  })
  async add(vars: Record<string, unknown>) {
    // The reference adds a bare client row for an existing login; Tally also takes the primary
    // contact's fields, and wants them when no login is named (a client must be someone).
    const withContact = CONTACT_FIELDS.some((field) => vars[field] !== undefined) || !optionalText(vars.user_id);
    await assertValid(vars, { ...(withContact ? contactRules(false) : {}), ...this.clientRules() });
    const now = formatUtc(new Date());
    const groupId = vars.client_group_id !== undefined && vars.client_group_id !== '' ? wholeNumber(vars.client_group_id) : await defaultGroupId(this.ctx.db, this.ctx.companyId);
    const client = await this.ctx.db
      .insertInto('clients')
      .values({ company_id: this.ctx.companyId, user_id: wholeNumber(vars.user_id), client_group_id: groupId, status: optionalText(vars.status) ?? 'active', date_added: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.ctx.db.updateTable('clients').set(displayNumber(vars.id_code, client.id)).where('id', '=', client.id).execute();
    if (withContact) await this.addPrimaryContact(client.id, vars, now);
    await emit(this.ctx, 'Clients.add', await this.get(client.id, false));
    return client.id;
  }

  @callable({
    description: 'Change any of the fields clients/add takes (the contact fields change the primary contact). Returns the client.',
    verb: 'PUT',
    params: [int('client_id'), object('vars')],
    vars: CLIENT_EDIT,
    returns: CLIENT,
  })
  async edit(clientId: number, vars: Record<string, unknown>) {
    const client = await requireClient(this.ctx.db, this.ctx.companyId, clientId);
    const contact = contactValues(vars);
    const givesContact = Object.keys(contact).length > 0;
    // A bare client (added without a contact) gets its primary contact from the first edit that names one.
    const contactChecks = client.contact_id !== null ? contactRules(true) : givesContact ? contactRules(false) : {};
    await assertValid(vars, { ...contactChecks, ...this.clientRules() });
    const changes: Record<string, string | number | null> = {};
    if (vars.user_id !== undefined) changes.user_id = wholeNumber(vars.user_id);
    if (vars.client_group_id !== undefined) changes.client_group_id = wholeNumber(vars.client_group_id);
    if (vars.status !== undefined) changes.status = String(vars.status);
    if (vars.id_code !== undefined) Object.assign(changes, displayNumber(vars.id_code, clientId));
    if (Object.keys(changes).length) await this.ctx.db.updateTable('clients').set(changes).where('id', '=', clientId).execute();
    if (givesContact && client.contact_id !== null) await this.ctx.db.updateTable('contacts').set(contact).where('id', '=', client.contact_id).execute();
    else if (givesContact) await this.addPrimaryContact(clientId, vars, formatUtc(new Date()));
    await emit(this.ctx, 'Clients.edit', await this.get(clientId, false));
    return this.get(clientId, false);
  }

  @callable({
    description: 'Delete a client with its contacts, notes, settings, recurring invoices and restricted package grants. A client with invoices or transactions is kept (400 client_id.in_use).',
    verb: 'DELETE',
    params: [int('client_id')],
    returns: nothing(),
  })
  async delete(clientId: number) {
    await requireClient(this.ctx.db, this.ctx.companyId, clientId);
    const deleted = await this.get(clientId, false);
    const db = this.ctx.db;
    const billed =
      (await db.selectFrom('invoices').select('id').where('client_id', '=', clientId).executeTakeFirst()) ??
      (await db.selectFrom('transactions').select('id').where('client_id', '=', clientId).executeTakeFirst());
    if (billed) throw TallyError.invalid({ client_id: { in_use: 'The client cannot be deleted because it has invoices or transactions.' } });
    await db
      .deleteFrom('contact_numbers')
      .where('contact_id', 'in', db.selectFrom('contacts').select('id').where('client_id', '=', clientId))
      .execute();
    await db.deleteFrom('contacts').where('client_id', '=', clientId).execute();
    await db.deleteFrom('client_notes').where('client_id', '=', clientId).execute();
    await db.deleteFrom('client_values').where('client_id', '=', clientId).execute();
    await db.deleteFrom('owner_settings').where('owner', '=', 'client').where('owner_id', '=', clientId).execute();
    // Its recurring invoices would bill nobody, and its package grants name nobody (the reference deletes both with it).
    const recurring = await db.selectFrom('invoices_recur').select('id').where('client_id', '=', clientId).execute();
    await deleteRecurringRows(
      db,
      recurring.map((r) => r.id),
    );
    await db.deleteFrom('client_packages').where('client_id', '=', clientId).execute();
    await db.deleteFrom('clients').where('id', '=', clientId).execute();
    await emit(this.ctx, 'Clients.delete', deleted);
    return null;
  }

  private async addPrimaryContact(clientId: number, vars: Record<string, unknown>, now: string) {
    const contact = await this.ctx.db
      .insertInto('contacts')
      .values({ first_name: '', last_name: '', email: '', ...contactValues(vars), client_id: clientId, user_id: null, contact_type: 'primary', date_added: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await addNumbers(this.ctx.db, contact.id, vars.numbers);
  }

  private listed(status: string | null, filters: unknown) {
    let query = clientQuery(this.ctx.db, this.ctx.companyId);
    if (status !== null) query = query.where('clients.status', '=', status);
    const known = readFilters(filters, FILTERS);
    if (known.client_group_id !== undefined) query = query.where('clients.client_group_id', '=', wholeNumber(known.client_group_id) ?? -1);
    return query;
  }

  private async count(query: ReturnType<typeof clientQuery>) {
    const row = await query
      .clearSelect()
      .select(sql<number>`count(*)`.as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  private clientRules(): RuleSet {
    return {
      user_id: { ifSet: true, rules: [userExists(this.ctx)] },
      client_group_id: { ifSet: true, rules: [clientGroupExists(this.ctx.db, this.ctx.companyId)] },
      status: { ifSet: true, rules: [{ code: 'format', message: 'Invalid status.', check: is.oneOf(CLIENT_STATUSES) }] },
      id_code: { ifSet: true, rules: [{ code: 'length', message: 'The client number may be at most 64 characters long.', check: (v) => String(v).trim().length <= 64 }] },
    };
  }
}

/**
 * The stored form of a display number given in vars[id_code]: digits become id_value under the
 * `{num}` format; any other text is kept as a fixed format. Not given (or blank): the number is the client id.
 */
function displayNumber(idCode: unknown, clientId: number): { id_format: string; id_value: number } {
  const text = optionalText(idCode);
  if (text !== null && /^\d{1,15}$/.test(text)) return { id_format: '{num}', id_value: Number(text) };
  if (text !== null) return { id_format: text.replace(/\{num\}/g, ''), id_value: clientId };
  return { id_format: '{num}', id_value: clientId };
}
