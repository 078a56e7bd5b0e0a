import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { model } from '../kernel/model';
import { EmailAttachments } from './emails/email-attachments';
import { EmailRecords } from './emails/email-records';
import { EmailSignatures } from './emails/email-signatures';
import { emailValues } from './emails/email-values';
import { EMAIL } from './emails.fields';
import { mailDb } from '../delivery/mail-tables';
import { findGroupByAction, groupQuery, groupSample, ownTagNames, presentGroup } from '../delivery/email-group-store';
import { SendCustom } from './emails/send-custom';
import { any, int, list, object, string } from '../kernel/parameter';
import { int as count, listOf, orFalse, orNull, record, string as text } from '../kernel/shape';
import { TallyError } from '../kernel/tally-error';
import { DEFAULT_LANG, findTemplate, invalidAction, renderParts, resetTemplate, saveTemplate, Template } from '../delivery/template-store';
import { queueTemplateMessage } from '../delivery/queue-template-message';

const TEMPLATE = EMAIL;
const RENDERED = record({ subject: text(), html: text(), text: text() });
const GROUP = record({ action: text(), type: text(), tags: listOf(text()) });

const LANG = { default: DEFAULT_LANG, example: DEFAULT_LANG };

/**
 * The company's email templates (the reference's Emails and EmailGroups, keyed by action and
 * language): read, edit (checked at save: a template that does not parse or names a tag it is not
 * given is a 400 naming the line), preview with sample tags, reset to the default, and send.
 */
@model('emails', { facets: [EmailRecords, EmailSignatures, EmailAttachments, SendCustom] })
export class Emails {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description: "Every template of the company: the core groups' (its own versions, else the defaults), then its own groups' that have an email.",
    verb: 'GET',
    params: [string('lang', LANG)],
    returns: listOf(TEMPLATE),
  })
  async getList(lang: string) {
    const templates: Template[] = [];
    for (const group of await this.groups()) {
      const template = await findTemplate(this.ctx.db, this.ctx.companyId, group.action, lang);
      if (template) templates.push(template);
    }
    return templates;
  }

  @callable({
    description: 'The template of one action; false when there is no such action.',
    verb: 'GET',
    params: [string('action', { example: 'invoice_delivery_unpaid' }), string('lang', LANG)],
    returns: orFalse(TEMPLATE),
  })
  async getByType(action: string, lang: string) {
    return (await findTemplate(this.ctx.db, this.ctx.companyId, action, lang)) ?? false;
  }

  @callable({
    description:
      "The HTML body of one action's email as it is written, tags unrendered (the company's own version, else the default): what a template editor starts from. false when there is no such action.",
    verb: 'GET',
    params: [string('action', { example: 'invoice_delivery_unpaid' }), string('lang', LANG)],
    returns: orFalse(text()),
  })
  async getHtmlTemplate(action: string, lang: string) {
    return (await findTemplate(this.ctx.db, this.ctx.companyId, action, lang))?.html ?? false;
  }

  @callable({ description: "The email groups (the core ones, then the company's own): each action, whether it goes to clients or staff, and its tags.", verb: 'GET', returns: listOf(GROUP) })
  async getGroups() {
    return (await this.groups()).map((group) => ({ action: group.action, type: group.type, tags: ownTagNames(group.tags) }));
  }

  private async groups() {
    return (await groupQuery(this.ctx.db, this.ctx.companyId).orderBy('id').execute()).map(presentGroup);
  }

  @callable({
    description:
      "Change the company's version of a template: vars[subject], vars[html], vars[text], and the reference's vars[from], vars[from_name], vars[email_signature_id], vars[include_attachments], vars[status] (what is not given keeps its value). `{tag}` prints a tag, `{% if %}`/`{% for %}` are Liquid tags. Returns the template.",
    verb: 'PUT',
    params: [string('action', { example: 'invoice_delivery_unpaid' }), object('vars'), string('lang', LANG)],
    returns: TEMPLATE,
  })
  async edit(action: string, vars: Record<string, unknown>, lang: string) {
    const current = await this.template(action, lang);
    const part = (name: 'subject' | 'html' | 'text') => {
      const given = vars[name];
      if (given === undefined || given === null) return current[name];
      if (typeof given !== 'string') throw TallyError.invalid({ [`vars[${name}]`]: { format: 'Please give the text of the template.' } });
      return given;
    };
    const { options } = await emailValues(this.ctx.db, this.ctx.companyId, vars, false);
    await saveTemplate(this.ctx.db, this.ctx.companyId, action, lang, { subject: part('subject'), html: part('html'), text: part('text') });
    if (Object.keys(options).length) {
      await mailDb(this.ctx.db).updateTable('mail_templates').set(options).where('company_id', '=', this.ctx.companyId).where('action', '=', action).where('lang', '=', lang).execute();
    }
    return this.template(action, lang);
  }

  @callable({
    description: 'The template rendered with sample tags, as a message would read.',
    verb: 'GET',
    params: [string('action', { example: 'invoice_delivery_unpaid' }), string('lang', LANG)],
    returns: RENDERED,
  })
  async preview(action: string, lang: string) {
    const template = await this.template(action, lang);
    const group = (await findGroupByAction(this.ctx.db, this.ctx.companyId, action))!;
    return renderParts(template, { company: { name: 'Example Hosting', hostname: 'example.com' }, ...groupSample(group) });
  }

  @callable({
    description: "Delete the company's version of a template: the default is used again. Returns the template.",
    verb: 'DELETE',
    params: [string('action', { example: 'invoice_delivery_unpaid' }), string('lang', LANG)],
    returns: TEMPLATE,
  })
  async reset(action: string, lang: string) {
    await this.template(action, lang);
    await resetTemplate(this.ctx.db, this.ctx.companyId, action, lang);
    return this.template(action, lang);
  }

  @callable({
    description:
      "Send the template of `action` to the addresses `to[]` with `tags` (tags[contact][first_name]=Ada): written to the mail outbox and sent after commit. client_id puts it in that client's mail log. A tag the template uses and tags lacks is a 400. Returns the mail log id (null when the company set the email inactive: nothing is sent).",
    verb: 'POST',
    params: [
      string('action', { example: 'account_welcome' }),
      list('to'),
      object('tags', { default: {} }),
      int('client_id', { default: null }),
      string('lang', LANG),
      any('options', { default: null }),
    ],
    returns: orNull(count({ description: 'The mail log id; null for an inactive email.' })),
  })
  async send(action: string, to: unknown[], tags: Record<string, unknown>, clientId: number | null, lang: string, _options: unknown) {
    if (to.some((address) => typeof address !== 'string')) throw TallyError.invalid({ to: { format: 'Give addresses as to[]=ada@example.com.' } });
    if (clientId !== null && !(await this.ctx.db.selectFrom('clients').select('id').where('id', '=', clientId).where('company_id', '=', this.ctx.companyId).executeTakeFirst())) {
      throw TallyError.invalid({ client_id: { exists: 'Invalid client ID.' } });
    }
    await this.template(action, lang);
    return queueTemplateMessage(this.ctx.db, { companyId: this.ctx.companyId, action, tags, to: to as string[], clientId, lang });
  }

  private async template(action: string, lang: string): Promise<Template> {
    if (!/^[a-z]{2}_[a-z]{2}$/.test(lang)) throw TallyError.invalid({ lang: { format: 'Please give a language such as en_us.' } });
    const template = await findTemplate(this.ctx.db, this.ctx.companyId, action, lang);
    if (!template) throw invalidAction();
    return template;
  }
}
