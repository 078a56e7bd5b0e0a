import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { any, int, object, string } from '../../kernel/parameter';
import { listOf, mapOf, nothing, orFalse, record, string as text } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { formatUtc } from '../../kernel/timestamps';
import { findGroup, findGroupByAction, groupQuery, groupSample, presentGroup } from '../../delivery/email-group-store';
import { isMailAddress } from '../../delivery/header-safety';
import { mailDb } from '../../delivery/mail-tables';
import { buildMessage } from '../../delivery/queue-template-message';
import { findSignature } from '../../delivery/signature-store';
import { checkParts, DEFAULT_LANG, findTemplate, presentTemplate, Template } from '../../delivery/template-store';
import { EMAIL, EMAIL_FIELDS, EMAIL_GROUP, SIGNATURE } from '../emails.fields';
import { emailValues } from './email-values';

const GROUP = EMAIL_GROUP;
const EMAIL_WITH_SIGNATURE = record({ ...EMAIL_FIELDS, signature: orFalse(SIGNATURE) });
const invalidEmail = () => TallyError.invalid({ email_id: { exists: 'Invalid email ID.' } });
const LANG = /^[a-z]{2}_[a-z]{2}$/;

/**
 * The reference's Emails by id: a company's email is its version of a group's template in one
 * language (a mail_templates row, core/delivery/template-store.ts), with a sender, a signature,
 * attachments and a status of its own. A facet of the emails model (emails.ts lists it).
 */
@facet('emails')
export class EmailRecords {
  constructor(private readonly ctx: CallContext) {}

  @callable({ description: "One of the company's emails by id, with its signature; false when it has none.", verb: 'GET', params: [int('id')], returns: orFalse(EMAIL_WITH_SIGNATURE) })
  async get(id: number) {
    const email = await this.byId(id);
    return email ? this.withSignature(email) : false;
  }

  @callable({
    description: "The email of a group in a language (the company's version, else its language's, else the default), with its signature; false when the group is not the company's.",
    verb: 'GET',
    params: [int('group_id'), string('lang', { default: null })],
    returns: orFalse(EMAIL_WITH_SIGNATURE),
  })
  async getByGroupId(groupId: number, lang: string | null) {
    const group = await findGroup(this.ctx.db, this.ctx.companyId, groupId);
    if (!group) return false;
    const email = await findTemplate(this.ctx.db, this.ctx.companyId, group.action, this.lang(lang));
    return email ? this.withSignature(email) : false;
  }

  @callable({
    description:
      "Add the company's email of a group in a language: vars[email_group_id], vars[lang] (default en_us), vars[subject], vars[text], vars[html], optional vars[from], vars[from_name], vars[email_signature_id], vars[include_attachments] (1 or 0), vars[status] (active or inactive); vars[company_id], when given, must be the caller's. One email per group and language. Returns its id.",
    verb: 'POST',
    params: [object('vars')],
    returns: EMAIL_FIELDS.email_group_id,
  })
  async add(vars: Record<string, unknown>) {
    if (vars.company_id !== undefined && Number(vars.company_id) !== this.ctx.companyId)
      throw TallyError.invalid({ company_id: { exists: 'Invalid company ID; a credential adds emails to its own company.' } });
    const group = typeof vars.email_group_id === 'string' || typeof vars.email_group_id === 'number' ? await findGroup(this.ctx.db, this.ctx.companyId, Number(vars.email_group_id)) : null;
    if (!group) throw TallyError.invalid({ email_group_id: { exists: 'Invalid email group ID.' } });
    const lang = vars.lang === undefined || vars.lang === '' ? DEFAULT_LANG : String(vars.lang);
    if (!LANG.test(lang)) throw TallyError.invalid({ lang: { format: 'Please give a language such as en_us.' } });
    const taken = await mailDb(this.ctx.db)
      .selectFrom('mail_templates')
      .select('id')
      .where('company_id', '=', this.ctx.companyId)
      .where('action', '=', group.action)
      .where('lang', '=', lang)
      .executeTakeFirst();
    if (taken) throw TallyError.invalid({ company_id: { unique: 'An email already exists for this group and language.' } });
    const values = await emailValues(this.ctx.db, this.ctx.companyId, vars, true);
    checkParts({ subject: values.subject!, text: values.text!, html: values.html! }, groupSample(group));
    const row = await mailDb(this.ctx.db)
      .insertInto('mail_templates')
      .values({ company_id: this.ctx.companyId, action: group.action, lang, subject: values.subject!, text: values.text!, html: values.html!, date_updated: formatUtc(new Date()), ...values.options })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  @callable({ description: "Delete one of the company's emails (its attachments too): a core group's default is used again.", verb: 'DELETE', params: [int('id')], returns: nothing() })
  async delete(id: number) {
    if (!(await this.byId(id))) throw invalidEmail();
    await mailDb(this.ctx.db).deleteFrom('email_attachments').where('email_id', '=', id).execute();
    await mailDb(this.ctx.db).deleteFrom('mail_templates').where('id', '=', id).where('company_id', '=', this.ctx.companyId).execute();
    return null;
  }

  @callable({
    description: "Delete the company's emails of a group in every language. Another company_id deletes nothing.",
    verb: 'DELETE',
    params: [int('email_group_id'), int('company_id')],
    returns: nothing(),
  })
  async deleteAll(groupId: number, companyId: number) {
    const group = await findGroup(this.ctx.db, this.ctx.companyId, groupId);
    if (!group || companyId !== this.ctx.companyId) return null;
    const mail = mailDb(this.ctx.db);
    const emails = mail.selectFrom('mail_templates').select('id').where('company_id', '=', this.ctx.companyId).where('action', '=', group.action);
    await mail.deleteFrom('email_attachments').where('email_id', 'in', emails).execute();
    await mail.deleteFrom('mail_templates').where('company_id', '=', this.ctx.companyId).where('action', '=', group.action).execute();
    return null;
  }

  @callable({
    description: 'Give every email of the company with a from address of its own the domain `domain` (billing@old.example → billing@domain). Another company_id changes nothing.',
    verb: 'PUT',
    params: [string('domain'), int('company_id')],
    returns: nothing(),
  })
  async updateFromDomain(domain: string, companyId: number) {
    if (!isMailAddress(`x@${domain}`)) throw TallyError.invalid({ domain: { format: 'Please give a domain such as example.com.' } });
    if (companyId !== this.ctx.companyId) return null;
    const rows = await mailDb(this.ctx.db).selectFrom('mail_templates').select(['id', 'from_address']).where('company_id', '=', companyId).where('from_address', 'is not', null).execute();
    for (const row of rows) {
      const local = row.from_address!.slice(0, row.from_address!.lastIndexOf('@'));
      await mailDb(this.ctx.db)
        .updateTable('mail_templates')
        .set({ from_address: `${local}@${domain}` })
        .where('id', '=', row.id)
        .execute();
    }
    return null;
  }

  @callable({ description: 'The statuses an email may have.', verb: 'GET', returns: mapOf(text()) })
  getStatusTypes() {
    return { active: 'Active', inactive: 'Inactive' };
  }

  @callable({ description: "An email group (a core one or the company's own); false when there is none.", verb: 'GET', params: [int('email_group_id')], returns: orFalse(GROUP) })
  async getGroup(groupId: number) {
    return (await findGroup(this.ctx.db, this.ctx.companyId, groupId)) ?? false;
  }

  @callable({
    description: "Every email group (the core ones and the company's own), ordered by sortby (id, action, type) and order (asc or desc).",
    verb: 'GET',
    params: [string('sortby', { default: 'action' }), string('order', { default: 'asc' })],
    returns: listOf(GROUP),
  })
  async getGroupList(sortBy: string, order: string) {
    if (!['id', 'action', 'type', 'notice_type'].includes(sortBy)) throw TallyError.invalid({ sortby: { format: 'Sort by id, action, type or notice_type.' } });
    const direction = order.toLowerCase();
    if (direction !== 'asc' && direction !== 'desc') throw TallyError.invalid({ order: { format: 'Give asc or desc.' } });
    const rows = await groupQuery(this.ctx.db, this.ctx.companyId)
      .orderBy(sortBy as 'action', direction)
      .orderBy('id')
      .execute();
    return rows.map(presentGroup);
  }

  @callable({
    description:
      'The email of `action` rendered with tags[...] in lang (its signature appended), without sending it: what emails/send would write. false when the company has no such email; another company_id is false too. A tag the template uses and tags lacks is a 400.',
    verb: 'POST',
    params: [string('action'), int('company_id'), string('lang', { default: null }), any('tags', { default: null })],
    returns: orFalse(EMAIL),
  })
  async buildEmail(action: string, companyId: number, lang: string | null, tags: unknown) {
    if (companyId !== this.ctx.companyId) return false;
    if (tags !== null && (typeof tags !== 'object' || Array.isArray(tags))) throw TallyError.invalid({ tags: { format: 'Give tags as tags[contact][first_name]=Ada.' } });
    const email = await findTemplate(this.ctx.db, this.ctx.companyId, action, this.lang(lang));
    if (!email) return false;
    const rendered = await buildMessage(this.ctx.db, this.ctx.companyId, email, (tags as Record<string, unknown>) ?? {});
    return { ...email, ...rendered };
  }

  private lang(lang: string | null): string {
    if (lang === null || lang === '') return DEFAULT_LANG;
    if (!LANG.test(lang)) throw TallyError.invalid({ lang: { format: 'Please give a language such as en_us.' } });
    return lang;
  }

  /** One of the company's emails, or null. */
  private async byId(id: number): Promise<Template | null> {
    const own = await mailDb(this.ctx.db).selectFrom('mail_templates').selectAll().where('id', '=', id).where('company_id', '=', this.ctx.companyId).executeTakeFirst();
    if (!own) return null;
    const group = await findGroupByAction(this.ctx.db, this.ctx.companyId, own.action);
    return group ? presentTemplate(group, own.lang, own, null) : null;
  }

  private async withSignature(email: Template) {
    const signature = email.email_signature_id === null ? null : await findSignature(this.ctx.db, this.ctx.companyId, email.email_signature_id);
    return { ...email, signature: signature ?? false };
  }
}
