import { Tx } from '../db/schema';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { assertValid, is } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { int, object } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { formatUtc } from '../kernel/timestamps';
import { CONTACT_COLUMNS, contactRules, contactValues, userExists } from './billing/contact-fields';
import { optionalText, wholeNumber } from './billing/values';
import { findClient, invalidClient } from './clients';
import { int as count, listOf, nothing, orNull } from '../kernel/shape';
import { CONTACT, CONTACT_ADD, CONTACT_EDIT } from './contacts.fields';

const COLUMNS = [
  'contacts.id',
  'contacts.client_id',
  'contacts.user_id',
  'contacts.contact_type',
  ...CONTACT_COLUMNS,
  'contacts.date_added',
] as const;

/** Types a caller may give; `primary` is the one contact every client gets from clients/add. */
const ADDABLE_TYPES = ['billing', 'other'] as const;

/** Contacts of the company's clients, reached only through a client of the caller's company. */
function contactQuery(db: Tx, companyId: number) {
  return db.selectFrom('contacts').innerJoin('clients', 'clients.id', 'contacts.client_id').select(COLUMNS).where('clients.company_id', '=', companyId);
}

const invalidContact = () => TallyError.invalid({ contact_id: { exists: 'Invalid contact ID.' } });

/** The people of a client: its primary contact (its own name and address) and any billing or other contacts. */
@model('contacts')
export class Contacts {
  constructor(private readonly ctx: CallContext) {}

  @callable({ description: 'Fetch a contact; null when it is not a contact of one of the caller\'s clients.', verb: 'GET', params: [int('contact_id')], returns: orNull(CONTACT) })
  async get(contactId: number) {
    return (await contactQuery(this.ctx.db, this.ctx.companyId).where('contacts.id', '=', contactId).executeTakeFirst()) ?? null;
  }

  @callable({ description: 'Every contact of a client, primary first.', verb: 'GET', params: [int('client_id')], returns: listOf(CONTACT) })
  async getList(clientId: number) {
    return contactQuery(this.ctx.db, this.ctx.companyId)
      .where('contacts.client_id', '=', clientId)
      .orderBy((eb) => eb.case().when('contacts.contact_type', '=', 'primary').then(0).else(1).end())
      .orderBy('contacts.id')
      .execute();
  }

  @callable({
    description: 'Add a contact to a client: vars[first_name], vars[last_name], vars[email], optional vars[contact_type] (billing or other; default billing), vars[user_id] and the address fields clients/add takes. Returns the contact id.',
    verb: 'POST',
    params: [int('client_id'), object('vars')],
    vars: CONTACT_ADD,
    returns: count({ description: 'The new contact id.' }),
  })
  async add(clientId: number, vars: Record<string, unknown>) {
    if (!(await findClient(this.ctx.db, this.ctx.companyId, clientId))) throw invalidClient();
    await assertValid(vars, { ...contactRules(false), ...this.linkRules() });
    const row = await this.ctx.db
      .insertInto('contacts')
      .values({
        first_name: '',
        last_name: '',
        email: '',
        ...contactValues(vars),
        client_id: clientId,
        user_id: wholeNumber(vars.user_id),
        contact_type: optionalText(vars.contact_type) ?? 'billing',
        date_added: formatUtc(new Date()),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  @callable({ description: 'Change any field contacts/add takes (the primary contact keeps its type). Returns the contact.', verb: 'PUT', params: [int('contact_id'), object('vars')], vars: CONTACT_EDIT, returns: CONTACT })
  async edit(contactId: number, vars: Record<string, unknown>) {
    const contact = await this.get(contactId);
    if (!contact) throw invalidContact();
    await assertValid(vars, { ...contactRules(true), ...this.linkRules() });
    if (contact.contact_type === 'primary' && vars.contact_type !== undefined && vars.contact_type !== 'primary') {
      throw TallyError.invalid({ contact_type: { primary: 'The primary contact of a client keeps its type.' } });
    }
    const changes: Record<string, string | number | null> = { ...contactValues(vars) };
    if (vars.user_id !== undefined) changes.user_id = wholeNumber(vars.user_id);
    if (vars.contact_type !== undefined && contact.contact_type !== 'primary') changes.contact_type = String(vars.contact_type);
    if (Object.keys(changes).length) await this.ctx.db.updateTable('contacts').set(changes).where('id', '=', contactId).execute();
    return this.get(contactId);
  }

  @callable({ description: 'Delete a contact; a client\'s primary contact is deleted only with the client.', verb: 'DELETE', params: [int('contact_id')], returns: nothing() })
  async delete(contactId: number) {
    const contact = await this.get(contactId);
    if (!contact) throw invalidContact();
    if (contact.contact_type === 'primary') throw TallyError.invalid({ contact_id: { primary: 'The primary contact is deleted only with its client.' } });
    await this.ctx.db.deleteFrom('contacts').where('id', '=', contactId).execute();
    return null;
  }

  private linkRules() {
    return {
      user_id: { ifSet: true, rules: [userExists(this.ctx)] },
      contact_type: { ifSet: true, rules: [{ code: 'format', message: 'The contact type must be billing or other.', check: is.oneOf(ADDABLE_TYPES) }] },
    };
  }
}
