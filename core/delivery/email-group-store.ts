import { Tx } from '../db/schema';
import { defaultTemplate } from './default-templates';
import { mailDb } from './mail-tables';

/**
 * The reference's email groups: the actions mail is sent for. The core groups (company_id null)
 * are every company's and cannot be changed; a company's own groups are its alone, so another
 * company never finds, edits, deletes or sends with them.
 */
export interface EmailGroup {
  readonly id: number;
  readonly action: string;
  readonly type: string;
  readonly notice_type: string | null;
  readonly plugin_dir: string | null;
  /** Comma-separated, as the reference keeps them: `{contact.first_name},{invoice.id_code}`. */
  readonly tags: string;
  /** false for a core group. */
  readonly company_id: number | null;
}

/** The groups a company sees: the core ones and its own. */
export function groupQuery(db: Tx, companyId: number) {
  return mailDb(db)
    .selectFrom('email_groups')
    .selectAll()
    .where((eb) => eb.or([eb('company_id', 'is', null), eb('company_id', '=', companyId)]));
}

/** The tag names a default template is given, dotted (`invoice.id_code`). */
export function tagNames(sample: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(sample).flatMap(([key, value]) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) ? tagNames(value as Record<string, unknown>, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

/** A company group's tags as names (`contact.first_name`), read from `{contact.first_name},{x}`. */
export function ownTagNames(tags: string | null): string[] {
  return (tags ?? '')
    .split(',')
    .map((tag) => tag.trim().replace(/^\{/, '').replace(/\}$/, '').trim())
    .filter((tag) => tag !== '');
}

/** Sample values for a company group's tags (previews and the check at save time use them). */
export function sampleFor(names: readonly string[]): Record<string, unknown> {
  const sample: Record<string, unknown> = {};
  for (const name of names) {
    const parts = name.split('.');
    // A name such as __proto__.x would otherwise reach Object.prototype (groups refuse them when added; this holds regardless).
    if (parts.some((part) => UNSAFE_NAMES.has(part))) continue;
    let node = sample;
    for (const part of parts.slice(0, -1)) {
      if (!Object.hasOwn(node, part) || typeof node[part] !== 'object') node[part] = {};
      node = node[part] as Record<string, unknown>;
    }
    node[parts[parts.length - 1]] = `[${name}]`;
  }
  return sample;
}

/** Names that are not tags but the machinery of every object. */
export const UNSAFE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

type GroupRow = { id: number; company_id: number | null; action: string; type: string; notice_type: string | null; plugin_dir: string | null; tags: string | null };

export function presentGroup(row: GroupRow): EmailGroup {
  const fallback = row.company_id === null ? defaultTemplate(row.action) : undefined;
  const names = fallback ? tagNames(fallback.sample) : ownTagNames(row.tags);
  return {
    id: Number(row.id),
    action: row.action,
    type: row.type,
    notice_type: row.notice_type,
    plugin_dir: row.plugin_dir,
    tags: names.map((name) => `{${name}}`).join(','),
    company_id: row.company_id === null ? null : Number(row.company_id),
  };
}

export async function findGroup(db: Tx, companyId: number, id: number): Promise<EmailGroup | null> {
  const row = await groupQuery(db, companyId).where('id', '=', id).executeTakeFirst();
  return row ? presentGroup(row) : null;
}

/** A company's own group comes before a core group of the same action (it cannot add one: see email-groups.ts). */
export async function findGroupByAction(db: Tx, companyId: number, action: string): Promise<EmailGroup | null> {
  const row = await groupQuery(db, companyId).where('action', '=', action).orderBy('company_id').executeTakeFirst();
  return row ? presentGroup(row) : null;
}

/** The sample tags a group's emails are checked and previewed with. */
export function groupSample(group: EmailGroup): Record<string, unknown> {
  return group.company_id === null ? (defaultTemplate(group.action)?.sample ?? {}) : sampleFor(ownTagNames(group.tags));
}
