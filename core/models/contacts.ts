import { IntlNumber } from './contacts/intl-number';
import { sql } from 'kysely';
import { Tx } from '../db/schema';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { assertValid, is } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { int, object, string } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { formatUtc } from '../kernel/timestamps';
import { CONTACT_COLUMNS, contactRules, contactValues, userExists } from '../billing/contact-fields';
import { CustomTypes } from '../billing/custom-types';
import { ordered, readOrder } from '../billing/ordering';
import { optionalText, pageOffset, wholeNumber } from '../billing/values';
import { findClient, invalidClient } from '../billing/client-store';
import { addNumbers, editNumbers, invalidNumber, NUMBER_COLUMNS, NUMBER_LOCATIONS, NUMBER_TYPES, numberRules, numbersRules, numberValues, WORK_HOME_MOBILE } from '../billing/contact-numbers';
import { int as count, listOf, mapOf, nothing, orFalse, string as text } from '../kernel/shape';
import { CONTACT, CONTACT_ADD, CONTACT_EDIT, CUSTOM_TYPE, CUSTOM_TYPE_ADD, CUSTOM_TYPE_EDIT, NUMBER, NUMBER_ADD, NUMBER_EDIT } from './contacts.fields';
import { PAGE_SIZE } from '../kernel/paging';
import { emit } from '../events/emit';
import { ContactPermissions } from './contacts/contact-permissions';

const CONTACT_TYPES = { primary: 'Primary', billing: 'Billing', other: 'Other' };
const ORDER: Record<string, string> = {
  last_name: 'contacts.last_name',
  first_name: 'contacts.first_name',
  email: 'contacts.email',
  contact_type: 'contacts.contact_type',
  date_added: 'contacts.date_added',
  id: 'contacts.id',
};
const NUMBER_ORDER: Record<string, string> = { number: 'contact_numbers.number', type: 'contact_numbers.type', location: 'contact_numbers.location', id: 'contact_numbers.id' };

/** Contacts of the company's clients, reached only through a client of the caller's company. */
function contactQuery(db: Tx, companyId: number) {
  return db
    .selectFrom('contacts')
    .innerJoin('clients', 'clients.id', 'contacts.client_id')
    .leftJoin('contact_types', 'contact_types.id', 'contacts.contact_type_id')
    .select(['contacts.id', 'contacts.client_id', 'contacts.user_id', 'contacts.contact_type', 'contacts.contact_type_id', ...CONTACT_COLUMNS, 'contacts.date_added'])
    .select(['contact_types.name as custom_type_name', 'contact_types.is_lang as custom_type_is_lang'])
    .where('clients.company_id', '=', companyId);
}

type ContactRow = Awaited<ReturnType<ReturnType<typeof contactQuery>['executeTakeFirstOrThrow']>>;

/** A contact with the reference's type fields: its own type's name when it names one (contact_type_id), else the built-in label. */
function present(row: ContactRow) {
  const { date_added, custom_type_name, custom_type_is_lang, ...rest } = row;
  const label = CONTACT_TYPES[row.contact_type as keyof typeof CONTACT_TYPES] ?? row.contact_type;
  return { ...rest, date_added, contact_type_name: custom_type_name ?? label, contact_type_is_lang: Boolean(custom_type_is_lang) };
}

const invalidContact = () => TallyError.invalid({ contact_id: { exists: 'Invalid contact ID.' } });

/** The people of a client: its one primary contact (the client's own name and address) and billing or other contacts. */
@model('contacts', { facets: [ContactPermissions, IntlNumber] })
export class Contacts {
  constructor(private readonly ctx: CallContext) {}

  @callable({ description: "A contact; false when it is not a contact of one of the caller's clients.", verb: 'GET', params: [int('contact_id')], returns: orFalse(CONTACT) })
  async get(contactId: number) {
    const row = await contactQuery(this.ctx.db, this.ctx.companyId).where('contacts.id', '=', contactId).executeTakeFirst();
    return row ? present(row) : false;
  }

  @callable({ description: 'The contact of client_id whose login is user_id; false when there is none.', verb: 'GET', params: [int('user_id'), int('client_id')], returns: orFalse(CONTACT) })
  async getByUserId(userId: number, clientId: number) {
    const row = await contactQuery(this.ctx.db, this.ctx.companyId).where('contacts.user_id', '=', userId).where('contacts.client_id', '=', clientId).orderBy('contacts.id').executeTakeFirst();
    return row ? present(row) : false;
  }

  @callable({
    description: 'Every contact of a client, optionally of one contact_type (primary, billing, other); order[field]=asc|desc over last_name, first_name, email, contact_type, date_added, id.',
    verb: 'GET',
    params: [int('client_id'), string('contact_type', { default: null }), object('order', { default: { last_name: 'asc', first_name: 'asc' } })],
    returns: listOf(CONTACT),
  })
  async getAll(clientId: number, contactType: string | null, order: unknown) {
    let query = contactQuery(this.ctx.db, this.ctx.companyId).where('contacts.client_id', '=', clientId);
    if (contactType !== null) query = query.where('contacts.contact_type', '=', contactType);
    return (await ordered(query, readOrder(order, ORDER, 'order'), 'contacts.id').execute()).map(present);
  }

  @callable({
    description: "One page (25) of a client's contacts, ordered as getAll.",
    verb: 'GET',
    params: [int('client_id'), int('page', { default: 1 }), object('order', { default: { last_name: 'asc', first_name: 'asc' } })],
    returns: listOf(CONTACT),
  })
  async getList(clientId: number, page: number, order: unknown) {
    const query = contactQuery(this.ctx.db, this.ctx.companyId).where('contacts.client_id', '=', clientId);
    return (
      await ordered(query, readOrder(order, ORDER, 'order'), 'contacts.id')
        .limit(PAGE_SIZE)
        .offset(pageOffset(page, PAGE_SIZE))
        .execute()
    ).map(present);
  }

  @callable({ description: 'How many contacts a client has.', verb: 'GET', params: [int('client_id')], returns: count() })
  async getListCount(clientId: number) {
    const row = await contactQuery(this.ctx.db, this.ctx.companyId)
      .clearSelect()
      .select(sql<number>`count(*)`.as('count'))
      .where('contacts.client_id', '=', clientId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  @callable({
    description:
      'Add a contact: vars[client_id], vars[first_name], vars[last_name], vars[email], optional vars[contact_type] (primary when the client has none yet, else billing or other; default: primary for a client without one, else billing), vars[user_id], vars[title], vars[company], address fields, vars[numbers][i][number|type|location]. Returns the contact id.',
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: CONTACT_ADD,
    returns: count({ description: 'The new contact id.' }),
  })
  async add(vars: Record<string, unknown>) {
    const clientId = wholeNumber(vars.client_id);
    const client = clientId === null ? undefined : await findClient(this.ctx.db, this.ctx.companyId, clientId);
    if (!client) throw invalidClient();
    const hasPrimary = client.contact_id !== null;
    await assertValid(vars, { ...contactRules(false), ...this.linkRules(hasPrimary ? ['billing', 'other'] : ['primary', 'billing', 'other']), ...numbersRules });
    const row = await this.ctx.db
      .insertInto('contacts')
      .values({
        first_name: '',
        last_name: '',
        email: '',
        ...contactValues(vars),
        client_id: client.id,
        user_id: wholeNumber(vars.user_id),
        contact_type: optionalText(vars.contact_type) ?? (hasPrimary ? 'billing' : 'primary'),
        contact_type_id: wholeNumber(vars.contact_type_id),
        date_added: formatUtc(new Date()),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await addNumbers(this.ctx.db, row.id, vars.numbers);
    await emit(this.ctx, 'Contacts.add', await this.get(row.id));
    return row.id;
  }

  @callable({
    description:
      'Change any field contacts/add takes but client_id (the primary contact keeps its type); vars[numbers][i][id] changes a number, a blank number removes it, an entry without id adds one. Returns the contact.',
    verb: 'PUT',
    params: [int('contact_id'), object('vars')],
    vars: CONTACT_EDIT,
    returns: CONTACT,
  })
  async edit(contactId: number, vars: Record<string, unknown>) {
    const contact = await this.get(contactId);
    if (!contact) throw invalidContact();
    await assertValid(vars, { ...contactRules(true), ...this.linkRules(contact.contact_type === 'primary' ? ['primary'] : ['billing', 'other']), ...numbersRules });
    const changes: Record<string, string | number | null> = { ...contactValues(vars) };
    if (vars.user_id !== undefined) changes.user_id = wholeNumber(vars.user_id);
    if (vars.contact_type !== undefined) changes.contact_type = String(vars.contact_type);
    if (vars.contact_type_id !== undefined) changes.contact_type_id = wholeNumber(vars.contact_type_id);
    if (Object.keys(changes).length) await this.ctx.db.updateTable('contacts').set(changes).where('id', '=', contactId).execute();
    await editNumbers(this.ctx.db, contactId, vars.numbers);
    await emit(this.ctx, 'Contacts.edit', await this.get(contactId));
    return this.get(contactId);
  }

  @callable({ description: "Delete a contact and its numbers; a client's primary contact is deleted only with the client.", verb: 'DELETE', params: [int('contact_id')], returns: nothing() })
  async delete(contactId: number) {
    const contact = await this.get(contactId);
    if (!contact) throw invalidContact();
    if (contact.contact_type === 'primary') throw TallyError.invalid({ contact_id: { primary: 'The primary contact is deleted only with its client.' } });
    await this.ctx.db.deleteFrom('contact_numbers').where('contact_id', '=', contactId).execute();
    await this.ctx.db.deleteFrom('contact_permissions').where('contact_id', '=', contactId).execute();
    await this.ctx.db.deleteFrom('contacts').where('id', '=', contactId).execute();
    await emit(this.ctx, 'Contacts.delete', contact);
    return null;
  }

  @callable({
    description: `A contact's numbers, optionally of one type (phone, fax) and location (home, work, mobile); order[field]=ASC|DESC over number, type, location, id, or the reference's default order[${WORK_HOME_MOBILE}]=ASC. False when the contact does not exist.`,
    verb: 'GET',
    params: [int('contact_id'), string('type', { default: null }), string('location', { default: null }), object('order', { default: { [WORK_HOME_MOBILE]: 'ASC' } })],
    returns: orFalse(listOf(NUMBER)),
  })
  async getNumbers(contactId: number, type: string | null, location: string | null, order: unknown) {
    if (!(await this.get(contactId))) return false;
    const byLocation = sql<number>`case contact_numbers.location when 'work' then 0 when 'home' then 1 when 'mobile' then 2 else 3 end`;
    const orderSpec = readOrder(order, { ...NUMBER_ORDER, [WORK_HOME_MOBILE]: WORK_HOME_MOBILE }, 'order');
    let query = this.ctx.db.selectFrom('contact_numbers').select(NUMBER_COLUMNS).where('contact_numbers.contact_id', '=', contactId);
    if (type !== null) query = query.where('contact_numbers.type', '=', type);
    if (location !== null) query = query.where('contact_numbers.location', '=', location);
    for (const [column, direction] of orderSpec) query = column === WORK_HOME_MOBILE ? query.orderBy(byLocation, direction) : query.orderBy(column as never, direction);
    return query.orderBy('contact_numbers.id').execute();
  }

  @callable({ description: "One number; false when it is not a number of one of the company's contacts.", verb: 'GET', params: [int('contact_number_id')], returns: orFalse(NUMBER) })
  async getNumber(numberId: number) {
    const row = await this.ctx.db
      .selectFrom('contact_numbers')
      .innerJoin('contacts', 'contacts.id', 'contact_numbers.contact_id')
      .innerJoin('clients', 'clients.id', 'contacts.client_id')
      .select(NUMBER_COLUMNS)
      .where('contact_numbers.id', '=', numberId)
      .where('clients.company_id', '=', this.ctx.companyId)
      .executeTakeFirst();
    return row ?? false;
  }

  @callable({
    description: 'Add a number to a contact: vars[number], optional vars[type] (phone, fax; default phone) and vars[location] (home, work, mobile; default home). Returns its id.',
    verb: 'POST',
    params: [int('contact_id'), object('vars')],
    vars: NUMBER_ADD,
    returns: count({ description: 'The new number id.' }),
  })
  async addNumber(contactId: number, vars: Record<string, unknown>) {
    if (!(await this.get(contactId))) throw invalidContact();
    await assertValid(vars, numberRules(false));
    const row = await this.ctx.db
      .insertInto('contact_numbers')
      .values({ number: '', type: 'phone', location: 'home', ...numberValues(vars, true), contact_id: contactId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  @callable({ description: 'Change vars[number], vars[type] or vars[location] of a number.', verb: 'PUT', params: [int('contact_number_id'), object('vars')], vars: NUMBER_EDIT, returns: nothing() })
  async editNumber(numberId: number, vars: Record<string, unknown>) {
    if (!(await this.getNumber(numberId))) throw invalidNumber();
    await assertValid(vars, numberRules(true));
    const changes = numberValues(vars, false);
    if (Object.keys(changes).length) await this.ctx.db.updateTable('contact_numbers').set(changes).where('id', '=', numberId).execute();
    return null;
  }

  @callable({ description: 'Delete a number.', verb: 'DELETE', params: [int('contact_number_id')], returns: nothing() })
  async deleteNumber(numberId: number) {
    if (!(await this.getNumber(numberId))) throw invalidNumber();
    await this.ctx.db.deleteFrom('contact_numbers').where('id', '=', numberId).execute();
    return null;
  }

  @callable({ description: 'The contact types and their names.', verb: 'GET', returns: mapOf(text()) })
  async getContactTypes() {
    return CONTACT_TYPES;
  }

  @callable({ description: 'The number types (phone, fax) and their names.', verb: 'GET', returns: mapOf(text()) })
  async getNumberTypes() {
    return NUMBER_TYPES;
  }

  @callable({ description: 'The number locations (home, work, mobile) and their names.', verb: 'GET', returns: mapOf(text()) })
  async getNumberLocations() {
    return NUMBER_LOCATIONS;
  }

  @callable({
    description: "Add a contact type of the company: vars[name], optional vars[is_lang], vars[company_id] (the caller's). Returns its id.",
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: CUSTOM_TYPE_ADD,
    returns: count({ description: 'The new type id.' }),
  })
  async addType(vars: Record<string, unknown>) {
    return this.types().add(vars);
  }

  @callable({ description: 'Change vars[name] or vars[is_lang] of a contact type.', verb: 'PUT', params: [int('contact_type_id'), object('vars')], vars: CUSTOM_TYPE_EDIT, returns: nothing() })
  async editType(typeId: number, vars: Record<string, unknown>) {
    await this.types().edit(typeId, vars);
    return null;
  }

  @callable({ description: 'Delete a contact type; contacts that named it keep their built-in type.', verb: 'DELETE', params: [int('contact_type_id')], returns: nothing() })
  async deleteType(typeId: number) {
    await this.types().delete(typeId);
    return null;
  }

  @callable({ description: 'A contact type of the company; false when there is none.', verb: 'GET', params: [int('contact_type_id')], returns: orFalse(CUSTOM_TYPE) })
  async getType(typeId: number) {
    return this.types().get(typeId);
  }

  @callable({ description: "The company's contact types (another company_id lists nothing).", verb: 'GET', params: [int('company_id', { default: null })], returns: listOf(CUSTOM_TYPE) })
  async getTypes(companyId: number | null) {
    return companyId === null || companyId === this.ctx.companyId ? this.types().all() : [];
  }

  private types() {
    return new CustomTypes(this.ctx.db, this.ctx.companyId, 'contact_types', 'contact_type_id');
  }

  private linkRules(types: readonly string[]) {
    return {
      user_id: { ifSet: true, rules: [userExists(this.ctx)] },
      contact_type_id: { ifSet: true, rules: [this.types().exists('Invalid contact type ID.')] },
      contact_type: { ifSet: true, rules: [{ code: 'format', message: `The contact type must be ${types.join(' or ')} here (a client has one primary contact).`, check: is.oneOf(types) }] },
    };
  }
}
