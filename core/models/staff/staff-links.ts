import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { int, object, string } from '../../kernel/parameter';
import { int as count, listOf, nothing, record, string as text } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { FieldErrors } from '../../kernel/errors';

const LINK = record({ id: count(), staff_id: count(), company_id: count(), uri: text({ description: 'A path in the admin area.' }), title: text(), order: count() });

/**
 * The reference's staff quick links: pages of the admin area a staff member keeps at hand, in their
 * order. A link is a path on Tally (never another site or a script), its title shown as text.
 */
@facet('staff')
export class StaffLinks {
  constructor(private readonly ctx: CallContext) {}

  @callable({ verb: 'GET', params: [int('staff_id'), int('company_id')], returns: listOf(LINK), description: "A staff member's quick links in their order; another company's member has none." })
  async getQuickLinks(staffId: number, companyId: number) {
    if (companyId !== this.ctx.companyId) return [];
    return this.ctx.db
      .selectFrom('staff_links')
      .select(['id', 'staff_id', 'company_id', 'uri', 'title', 'order'])
      .where('company_id', '=', companyId)
      .where('staff_id', '=', staffId)
      .orderBy('order')
      .orderBy('id')
      .execute();
  }

  @callable({
    verb: 'POST',
    params: [int('staff_id'), int('company_id'), object('vars')],
    returns: nothing(),
    description:
      'Keep a quick link for a staff member of the company: vars[uri] (a path such as /admin/clients), vars[title], vars[order] (0 to 99999; 0). The same uri again changes its title and order.',
  })
  async addQuickLink(staffId: number, companyId: number, vars: Record<string, unknown>) {
    const errors: FieldErrors = {};
    const member = companyId === this.ctx.companyId && (await this.ctx.db.selectFrom('staff').select('id').where('id', '=', staffId).where('company_id', '=', companyId).executeTakeFirst());
    if (!member) errors.staff_id = { exists: 'Invalid staff ID.' };
    const uri = typeof vars.uri === 'string' ? vars.uri.trim() : '';
    const title = typeof vars.title === 'string' ? vars.title.trim() : '';
    const order = vars.order === undefined || vars.order === '' ? 0 : Number(vars.order);
    if (!/^\/[^\s"'<>\\]{0,254}$/.test(uri) || uri.startsWith('//')) errors.uri = { empty: 'Please enter the path of a page of Tally, such as /admin/clients.' };
    if (!title) errors.title = { empty: 'Please enter a title.' };
    else if (title.length > 128) errors.title = { length: 'The title may be at most 128 characters.' };
    if (!Number.isInteger(order) || order < 0 || order > 99999) errors.order = { format: 'The order must be a whole number from 0 to 99999.' };
    for (const key of Object.keys(vars)) if (!['uri', 'title', 'order'].includes(key)) errors[key] = { unknown: `A quick link has no "${key}": it takes uri, title and order.` };
    if (Object.keys(errors).length) throw TallyError.invalid(errors);
    await this.ctx.db.deleteFrom('staff_links').where('company_id', '=', companyId).where('staff_id', '=', staffId).where('uri', '=', uri).execute();
    await this.ctx.db.insertInto('staff_links').values({ company_id: companyId, staff_id: staffId, uri, title, order }).execute();
    return null;
  }

  @callable({ verb: 'DELETE', params: [int('staff_id'), int('company_id'), string('uri')], returns: nothing(), description: "Remove a staff member's quick link to uri; none is a no-op." })
  async deleteQuickLink(staffId: number, companyId: number, uri: string) {
    await this.ctx.db.deleteFrom('staff_links').where('company_id', '=', this.ctx.companyId).where('company_id', '=', companyId).where('staff_id', '=', staffId).where('uri', '=', uri).execute();
    return null;
  }
}
