import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { model } from '../kernel/model';
import { bool, int, object, string } from '../kernel/parameter';
import { int as count, listOf, nothing, orFalse } from '../kernel/shape';
import { TallyError } from '../kernel/tally-error';
import { EmailGroup, findGroup, groupQuery, ownTagNames, presentGroup, UNSAFE_NAMES } from '../delivery/email-group-store';
import { mailDb } from '../delivery/mail-tables';
import { DEFAULT_LANG, findTemplate } from '../delivery/template-store';
import { EMAIL, EMAIL_GROUP } from './emails.fields';

const GROUP = EMAIL_GROUP;

const TYPES = ['client', 'staff', 'shared'];
const invalidGroup = () => TallyError.invalid({ group_id: { exists: 'Invalid email group ID.' } });

/**
 * The reference's EmailGroups: the actions mail is sent for. The core groups are every company's
 * and read-only; a company adds groups of its own (custom mail it sends with emails/send), which no
 * other company sees. A group's emails, one per language, are in the emails model.
 */
@model('email_groups')
export class EmailGroups {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description:
      'Add a group of the company: vars[action] (unique, at most 64 characters), vars[type] (client, staff or shared), optional vars[notice_type] (bcc or to), vars[plugin_dir], vars[tags] ("{name},{order.id}"). Returns its id.',
    verb: 'POST',
    params: [object('vars')],
    returns: count(),
  })
  async add(vars: Record<string, unknown>) {
    const values = await this.checked(vars, null);
    const row = await mailDb(this.ctx.db)
      .insertInto('email_groups')
      .values({
        company_id: this.ctx.companyId,
        action: values.action!,
        type: values.type ?? 'client',
        notice_type: values.notice_type ?? null,
        plugin_dir: values.plugin_dir ?? null,
        tags: values.tags ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  @callable({
    description: "Change one of the company's groups (the fields of add, each optional). Core groups cannot be changed.",
    verb: 'PUT',
    params: [int('id'), object('vars')],
    returns: nothing(),
  })
  async edit(id: number, vars: Record<string, unknown>) {
    const group = await this.own(id);
    const values = await this.checked(vars, group);
    await mailDb(this.ctx.db).updateTable('email_groups').set(values).where('id', '=', id).execute();
    if (values.action !== undefined && values.action !== group.action) {
      await mailDb(this.ctx.db).updateTable('mail_templates').set({ action: values.action }).where('company_id', '=', this.ctx.companyId).where('action', '=', group.action).execute();
    }
    return null;
  }

  @callable({ description: "Delete one of the company's groups and its emails (their attachments too). Core groups cannot be deleted.", verb: 'DELETE', params: [int('id')], returns: nothing() })
  async delete(id: number) {
    const group = await this.own(id);
    const mail = mailDb(this.ctx.db);
    const emails = mail.selectFrom('mail_templates').select('id').where('company_id', '=', this.ctx.companyId).where('action', '=', group.action);
    await mail.deleteFrom('email_attachments').where('email_id', 'in', emails).execute();
    await mail.deleteFrom('mail_templates').where('company_id', '=', this.ctx.companyId).where('action', '=', group.action).execute();
    await mail.deleteFrom('email_groups').where('id', '=', id).execute();
    return null;
  }

  @callable({ description: "The group of an action (the core ones and the company's own); false when there is none.", verb: 'GET', params: [string('action')], returns: orFalse(GROUP) })
  async getByAction(action: string) {
    const row = await groupQuery(this.ctx.db, this.ctx.companyId).where('action', '=', action).orderBy('company_id').executeTakeFirst();
    return row ? presentGroup(row) : false;
  }

  @callable({
    description: 'The groups of a type (client, staff, shared); core=true: those of no plugin, false: plugin groups.',
    verb: 'GET',
    params: [string('type', { default: 'client' }), bool('core', { default: true })],
    returns: listOf(GROUP),
  })
  async getAll(type: string, core: boolean) {
    const rows = await groupQuery(this.ctx.db, this.ctx.companyId)
      .where('type', '=', type)
      .where('plugin_dir', core ? 'is' : 'is not', null)
      .orderBy('id')
      .execute();
    return rows.map(presentGroup);
  }

  @callable({
    description: 'The groups whose notices staff receive as notice_type (bcc or to), of a type when given.',
    verb: 'GET',
    params: [string('notice_type'), string('type', { default: null }), bool('core', { default: true })],
    returns: listOf(GROUP),
  })
  async getAllByNoticeType(noticeType: string, type: string | null, core: boolean) {
    let query = groupQuery(this.ctx.db, this.ctx.companyId)
      .where('notice_type', '=', noticeType)
      .where('plugin_dir', core ? 'is' : 'is not', null);
    if (type) query = query.where('type', '=', type);
    return (await query.orderBy('id').execute()).map(presentGroup);
  }

  @callable({
    description:
      "The email of every group of a type in a language (the company's version, else its language's, else the default), with the group's action, type, notice type and tags; by action. Another company_id lists nothing.",
    verb: 'GET',
    params: [int('company_id'), string('type', { default: 'client' }), bool('core', { default: true }), string('lang', { default: null })],
    returns: listOf(EMAIL),
  })
  async getAllEmails(companyId: number, type: string, core: boolean, lang: string | null) {
    if (companyId !== this.ctx.companyId) return [];
    const groups = (await this.getAll(type, core)).sort((a, b) => a.action.localeCompare(b.action));
    const emails = [];
    for (const group of groups) {
      const template = await findTemplate(this.ctx.db, this.ctx.companyId, group.action, lang ?? DEFAULT_LANG);
      if (template)
        emails.push({
          ...template,
          email_group_action: group.action,
          email_group_type: group.type,
          email_group_notice_type: group.notice_type,
          plugin_dir: group.plugin_dir,
          email_group_tags: group.tags,
        });
    }
    return emails;
  }

  /** One of the company's own groups, or the 400 naming it (a core group is not the company's to change). */
  private async own(id: number): Promise<EmailGroup> {
    const group = await findGroup(this.ctx.db, this.ctx.companyId, id);
    if (!group) throw invalidGroup();
    if (group.company_id === null) throw TallyError.invalid({ group_id: { core: 'A core email group cannot be changed or deleted.' } });
    return group;
  }

  private async checked(vars: Record<string, unknown>, editing: EmailGroup | null) {
    const errors: Record<string, Record<string, string>> = {};
    const textOf = (name: string, max: number): string | null | undefined => {
      const value = vars[name];
      if (value === undefined) return undefined;
      if (value === null || value === '') return null;
      if (typeof value !== 'string' || value.length > max || /[\u0000-\u001f]/.test(value)) {
        errors[name] = { format: `Please give text of at most ${max} characters, without control characters.` };
        return undefined;
      }
      return value.trim();
    };
    const action = textOf('action', 64);
    if ((editing === null || vars.action !== undefined) && !action) errors.action = { empty: 'Please enter an action.' };
    else if (action && !/^[a-z0-9_.-]+$/i.test(action)) errors.action = { format: 'An action holds letters, digits, _, . and - only.' };
    else if (action && action !== editing?.action) {
      const taken = await groupQuery(this.ctx.db, this.ctx.companyId).where('action', '=', action).executeTakeFirst();
      if (taken) errors.action = { unique: 'That action is already in use by another email group.' };
    }
    const type = textOf('type', 16);
    if (type !== undefined && (type === null || !TYPES.includes(type))) errors.type = { format: 'The type must be client, staff or shared.' };
    const noticeType = textOf('notice_type', 8);
    if (noticeType && !['bcc', 'to'].includes(noticeType)) errors.notice_type = { valid: 'The notice type must be bcc, to or empty.' };
    const pluginDir = textOf('plugin_dir', 64);
    const tags = textOf('tags', 4000);
    if (tags && !tags.split(',').every((tag) => /^\s*\{?\s*[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*\s*\}?\s*$/i.test(tag))) errors.tags = { format: 'Give tags as {name},{order.id}.' };
    else if (tags && ownTagNames(tags).some((name) => name.split('.').some((part) => UNSAFE_NAMES.has(part)))) errors.tags = { format: 'A tag may not be named __proto__, constructor or prototype.' };
    if (Object.keys(errors).length) throw TallyError.invalid(errors);
    const values: { action?: string; type?: string; notice_type?: string | null; plugin_dir?: string | null; tags?: string | null } = {};
    if (action) values.action = action;
    if (type) values.type = type;
    if (noticeType !== undefined) values.notice_type = noticeType;
    if (pluginDir !== undefined) values.plugin_dir = pluginDir;
    if (tags !== undefined) values.tags = tags;
    return values;
  }
}
