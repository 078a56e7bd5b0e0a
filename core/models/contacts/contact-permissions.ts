import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { int, list, string } from '../../kernel/parameter';
import { bool as yes, int as id, inputs, listOf, mapOf, nothing, record, string as text } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { CLIENT_AREAS, isClientArea } from '../../identity/client-areas';
import { readsOwnCompany } from '../../identity/tenancy';
import { emit } from '../../events/emit';

const PERMISSION = record({ id: id(), contact_id: id(), company_id: id(), area: text({ enum: Object.keys(CLIENT_AREAS) }) });

const invalidContact = () => TallyError.invalid({ contact_id: { exists: 'Invalid contact ID.' } });

/**
 * The reference's contact permissions: which parts of the client area (CLIENT_AREAS) a contact
 * with a login may use. A client signing in as itself uses them all; a contact only those set
 * here, and the client scope of the call path (core/trust/client-scope.ts) refuses the rest. A
 * facet of the contacts model (contacts.ts lists it), so these are `contacts/...` methods.
 */
@facet('contacts')
export class ContactPermissions {
  constructor(private readonly ctx: CallContext) {}

  @callable({ description: 'The client area parts a contact can be given, by area name.', verb: 'GET', params: [int('company_id', { default: null })], returns: mapOf(text()) })
  async getPermissionOptions(_companyId: number | null) {
    return CLIENT_AREAS;
  }

  @callable({
    description: "A contact's permissions (one record per area); [] for a contact that is not one of the caller's company.",
    verb: 'GET',
    params: [int('contact_id')],
    returns: listOf(PERMISSION),
  })
  async getPermissions(contactId: number) {
    if (!(await this.contactExists(contactId))) return [];
    return this.ctx.db.selectFrom('contact_permissions').select(['id', 'contact_id', 'company_id', 'area']).where('contact_id', '=', contactId).orderBy('area').execute();
  }

  @callable({ description: 'Whether the contact may use that area of the client area.', verb: 'GET', params: [int('company_id'), int('contact_id'), string('area')], returns: yes() })
  async hasPermission(companyId: number, contactId: number, area: string) {
    if (!readsOwnCompany(this.ctx, companyId) || !(await this.contactExists(contactId))) return false;
    const row = await this.ctx.db.selectFrom('contact_permissions').select('id').where('contact_id', '=', contactId).where('area', '=', area).executeTakeFirst();
    return !!row;
  }

  @callable({
    description: `Replace a contact's permissions with vars[i][area] (${Object.keys(CLIENT_AREAS).join(', ')}); an empty vars takes every permission away.`,
    verb: 'POST',
    params: [int('contact_id'), list('vars', { default: [] })],
    vars: inputs({ area: text({ required: true, enum: Object.keys(CLIENT_AREAS) }) }),
    returns: nothing(),
  })
  async setPermissions(contactId: number, vars: unknown) {
    if (!(await this.contactExists(contactId))) throw invalidContact();
    const entries = vars === '' || vars === null ? [] : typeof vars === 'object' ? Object.values(vars as object) : [vars];
    const areas = entries.map((entry) => (entry && typeof entry === 'object' && !Array.isArray(entry) ? (entry as Record<string, unknown>).area : entry));
    const unknown = areas.find((area) => !isClientArea(area));
    if (unknown !== undefined) throw TallyError.invalid({ area: { exists: `The area must be one of ${Object.keys(CLIENT_AREAS).join(', ')}.` } });
    await this.ctx.db.deleteFrom('contact_permissions').where('contact_id', '=', contactId).execute();
    const distinct = [...new Set(areas as string[])];
    if (distinct.length) {
      await this.ctx.db
        .insertInto('contact_permissions')
        .values(distinct.map((area) => ({ contact_id: contactId, company_id: this.ctx.companyId, area })))
        .execute();
    }
    await emit(this.ctx, 'Contacts.setPermissions', { contact_id: contactId, areas: distinct.sort() });
    return null;
  }

  private async contactExists(contactId: number): Promise<boolean> {
    const row = await this.ctx.db
      .selectFrom('contacts')
      .innerJoin('clients', 'clients.id', 'contacts.client_id')
      .select('contacts.id')
      .where('contacts.id', '=', contactId)
      .where('clients.company_id', '=', this.ctx.companyId)
      .executeTakeFirst();
    return !!row;
  }
}
