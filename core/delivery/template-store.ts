import { Tx } from '../db/schema';
import { TallyError } from '../kernel/tally-error';
import { formatUtc } from '../kernel/timestamps';
import { defaultTemplate, DefaultTemplate } from './default-templates';
import { isHeaderText } from './header-safety';
import { mailDb } from './mail-tables';
import { BodyKind, PARSE_LIMIT, renderTemplate, TemplateProblem } from './template-engine';

export const DEFAULT_LANG = 'en_us';

/** A template as a company sends it: its own version, else the default. */
export interface Template {
  readonly action: string;
  readonly lang: string;
  readonly type: 'client' | 'staff';
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  /** true when the company changed it (a reset brings the default back). */
  readonly customized: boolean;
  readonly tags: string[];
}

export function invalidAction(field = 'action'): TallyError {
  return TallyError.invalid({ [field]: { valid: 'There is no email template with that action.' } });
}

/** The tag names a default template is given, dotted (`invoice.id_code`). */
function tagNames(sample: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(sample).flatMap(([key, value]) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) ? tagNames(value as Record<string, unknown>, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

export async function findTemplate(db: Tx, companyId: number, action: string, lang = DEFAULT_LANG): Promise<Template | null> {
  const fallback = defaultTemplate(action);
  if (!fallback) return null;
  const own = await mailDb(db).selectFrom('mail_templates').selectAll().where('company_id', '=', companyId).where('action', '=', action).where('lang', '=', lang).executeTakeFirst();
  const source = own ?? fallback;
  return { action, lang, type: fallback.type, subject: source.subject, html: source.html, text: source.text, customized: own !== undefined, tags: tagNames(fallback.sample) };
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
  const fallback = defaultTemplate(action) as DefaultTemplate;
  const errors: Record<string, Record<string, string>> = {};
  for (const name of ['subject', 'html', 'text'] as const) {
    if (parts[name].length > PARSE_LIMIT) errors[name] = { length: `The ${name} may be at most ${PARSE_LIMIT} characters long.` };
  }
  if (parts.subject.trim() === '') errors.subject = { empty: 'Please give a subject.' };
  if (Object.keys(errors).length) throw TallyError.invalid(errors);
  renderParts(parts, fallback.sample);
  const now = formatUtc(new Date());
  await mailDb(db)
    .insertInto('mail_templates')
    .values({ company_id: companyId, action, lang, ...parts, date_updated: now })
    .onConflict((oc) => oc.columns(['company_id', 'action', 'lang']).doUpdateSet({ ...parts, date_updated: now }))
    .execute();
}

/** Deletes the company's version: the default is used again. */
export async function resetTemplate(db: Tx, companyId: number, action: string, lang: string): Promise<void> {
  await mailDb(db).deleteFrom('mail_templates').where('company_id', '=', companyId).where('action', '=', action).where('lang', '=', lang).execute();
}
