import { Tx } from '../db/schema';
import { TallyError } from '../kernel/tally-error';
import { formatUtc } from '../kernel/timestamps';
import { defaultTemplate } from './default-templates';
import { EmailGroup, findGroupByAction, groupSample, ownTagNames, tagNames } from './email-group-store';
import { isHeaderText } from './header-safety';
import { mailDb } from './mail-tables';
import { BodyKind, PARSE_LIMIT, renderTemplate, TemplateProblem } from './template-engine';

export const DEFAULT_LANG = 'en_us';

/** A template as a company sends it: its own version, else the default. */
export interface Template {
  /** The company's email (mail_templates row); null while the default is used. */
  readonly id: number | null;
  readonly email_group_id: number;
  readonly action: string;
  readonly lang: string;
  readonly type: string;
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  /** true when the company changed it (a reset brings the default back). */
  readonly customized: boolean;
  readonly tags: string[];
  /** The reference's email fields: a sender of its own (null: the mail settings'), a signature, attachments, status. */
  readonly from: string | null;
  readonly from_name: string | null;
  readonly email_signature_id: number | null;
  readonly include_attachments: number;
  readonly status: string;
}

export function invalidAction(field = 'action'): TallyError {
  return TallyError.invalid({ [field]: { valid: 'There is no email template with that action.' } });
}

/** The company's language (the `language` setting): the version a client without a language of its own gets. */
export async function companyLanguage(db: Tx, companyId: number): Promise<string> {
  const row = await db.selectFrom('settings').select('value').where('company_id', '=', companyId).where('key', '=', 'language').executeTakeFirst();
  return row?.value || DEFAULT_LANG;
}

function ownVersion(db: Tx, companyId: number, action: string, lang: string) {
  return mailDb(db).selectFrom('mail_templates').selectAll().where('company_id', '=', companyId).where('action', '=', action).where('lang', '=', lang).executeTakeFirst();
}

/**
 * The company's template of `action` in `lang`: its own version in that language, else its own in
 * the company's language, else (a core group) the default. Null for an action the company has no
 * group of, or a group of its own with no email in either language.
 */
export async function findTemplate(db: Tx, companyId: number, action: string, lang = DEFAULT_LANG): Promise<Template | null> {
  const group = await findGroupByAction(db, companyId, action);
  if (!group) return null;
  let own = await ownVersion(db, companyId, action, lang);
  if (!own) {
    const fallbackLang = await companyLanguage(db, companyId);
    if (fallbackLang !== lang) own = await ownVersion(db, companyId, action, fallbackLang);
  }
  const fallback = group.company_id === null ? defaultTemplate(action) : undefined;
  if (!own && !fallback) return null;
  return presentTemplate(group, lang, own ?? null, fallback ?? null);
}

type OwnRow = NonNullable<Awaited<ReturnType<typeof ownVersion>>>;

export function presentTemplate(group: EmailGroup, lang: string, own: OwnRow | null, fallback: { subject: string; html: string; text: string } | null): Template {
  const source = (own ?? fallback)!;
  const tags = group.company_id === null ? tagNames(defaultTemplate(group.action)?.sample ?? {}) : ownTagNames(group.tags);
  return {
    id: own ? Number(own.id) : null,
    email_group_id: group.id,
    action: group.action,
    lang: own?.lang ?? lang,
    type: group.type,
    subject: source.subject,
    html: source.html,
    text: source.text,
    customized: own !== null,
    tags,
    from: own?.from_address ?? null,
    from_name: own?.from_name ?? null,
    email_signature_id: own?.email_signature_id === null || own?.email_signature_id === undefined ? null : Number(own.email_signature_id),
    include_attachments: own ? Number(own.include_attachments) : 1,
    status: own?.status ?? 'active',
  };
}

export interface TemplateParts {
  subject: string;
  html: string;
  text: string;
}

/**
 * Renders each part with `tags`. A part that does not parse, names a tag the template is not
 * given, or prints a line break into the subject is a 400 naming the part and the line.
 */
export function renderParts(parts: TemplateParts, tags: Record<string, unknown>): TemplateParts {
  const errors: Record<string, Record<string, string>> = {};
  const part = (name: keyof TemplateParts, kind: BodyKind): string => {
    try {
      return renderTemplate(parts[name], tags, kind);
    } catch (error) {
      if (!(error instanceof TemplateProblem)) throw error;
      errors[name] = { template: error.line === null ? `The ${name} cannot be used: ${error.message}.` : `The ${name} cannot be used: ${error.message} on line ${error.line}.` };
      return '';
    }
  };
  const rendered = { subject: part('subject', 'plain'), html: part('html', 'html'), text: part('text', 'plain') };
  if (!errors.subject && !isHeaderText(rendered.subject)) errors.subject = { header: 'The subject may not hold line breaks or control characters.' };
  if (Object.keys(errors).length) throw TallyError.invalid(errors);
  return rendered;
}

/** Checks a company's version against the default's sample tags (every tag it may use), then keeps it. */
export async function saveTemplate(db: Tx, companyId: number, action: string, lang: string, parts: TemplateParts): Promise<void> {
  const group = await findGroupByAction(db, companyId, action);
  if (!group) throw invalidAction();
  checkParts(parts, groupSample(group));
  const now = formatUtc(new Date());
  await mailDb(db)
    .insertInto('mail_templates')
    .values({ company_id: companyId, action, lang, ...parts, date_updated: now })
    .onConflict((oc) => oc.columns(['company_id', 'action', 'lang']).doUpdateSet({ ...parts, date_updated: now }))
    .execute();
}

/** A 400 for parts too long, an empty subject, or a template that does not render with the group's sample tags. */
export function checkParts(parts: TemplateParts, sample: Record<string, unknown>): void {
  const errors: Record<string, Record<string, string>> = {};
  for (const name of ['subject', 'html', 'text'] as const) {
    if (parts[name].length > PARSE_LIMIT) errors[name] = { length: `The ${name} may be at most ${PARSE_LIMIT} characters long.` };
  }
  if (parts.subject.trim() === '') errors.subject = { empty: 'Please give a subject.' };
  if (Object.keys(errors).length) throw TallyError.invalid(errors);
  renderParts(parts, { company: { name: 'Example Hosting', hostname: 'example.com' }, ...sample });
}

/** Deletes the company's version: the default is used again. */
export async function resetTemplate(db: Tx, companyId: number, action: string, lang: string): Promise<void> {
  await mailDb(db).deleteFrom('mail_templates').where('company_id', '=', companyId).where('action', '=', action).where('lang', '=', lang).execute();
}
