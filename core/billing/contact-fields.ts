import { CallContext } from '../kernel/call-context';
import { trustDb } from '../identity/trust-tables';
import { usersFilter } from '../identity/user-reach';
import { is, Rule, RuleSet } from '../kernel/input-rules';
import { optionalText, wholeNumber } from './values';

/**
 * The person-and-address fields a contact holds. A client's name, email and address live on its
 * primary contact, as in the reference system, so clients/add and contacts/add share these rules.
 */
export const CONTACT_FIELDS = ['first_name', 'last_name', 'title', 'email', 'company', 'address1', 'address2', 'city', 'state', 'zip', 'country'] as const;

type Qualified<T extends readonly string[]> = { readonly [K in keyof T]: `contacts.${T[K] & string}` };

/** The same fields as select columns of the contacts table, for queries that join it. */
export const CONTACT_COLUMNS = CONTACT_FIELDS.map((field) => `contacts.${field}`) as unknown as Qualified<typeof CONTACT_FIELDS>;

const maxLength = (field: string, max: number): Rule => ({
  code: 'length',
  message: `The ${field} may be at most ${max} characters long.`,
  check: (v) => String(v ?? '').trim().length <= max,
});

/** Rules for the contact fields; `ifSet` for edits, which change only what they name. */
export function contactRules(ifSet: boolean): RuleSet {
  return {
    first_name: { ifSet, rules: [{ code: 'empty', message: 'Please enter a first name.', check: is.present, final: true }, maxLength('first name', 128)] },
    last_name: { ifSet, rules: [{ code: 'empty', message: 'Please enter a last name.', check: is.present, final: true }, maxLength('last name', 128)] },
    email: { ifSet, rules: [{ code: 'format', message: 'Please enter a valid email address.', check: is.email }] },
    title: { ifSet: true, rules: [maxLength('title', 64)] },
    company: { ifSet: true, rules: [maxLength('company', 255)] },
    address1: { ifSet: true, rules: [maxLength('address', 255)] },
    address2: { ifSet: true, rules: [maxLength('address', 255)] },
    city: { ifSet: true, rules: [maxLength('city', 255)] },
    zip: { ifSet: true, rules: [maxLength('zip code', 255)] },
    // Taxes are matched on these two, so they must be codes, not free text.
    country: {
      ifSet: true,
      rules: [{ code: 'format', message: 'The country must be a two-letter ISO 3166-1 code, such as US.', check: (v) => v === '' || /^[A-Z]{2}$/.test(String(v)) }],
    },
    state: {
      ifSet: true,
      rules: [{ code: 'format', message: 'The state must be an ISO 3166-2 subdivision code without the country, such as NY.', check: (v) => v === '' || /^[A-Z0-9]{1,3}$/.test(String(v)) }],
    },
  };
}

const REQUIRED = ['first_name', 'last_name', 'email'] as const;
type Required = (typeof REQUIRED)[number];
type ContactValues = Partial<Record<Required, string>> & Partial<Record<Exclude<(typeof CONTACT_FIELDS)[number], Required>, string | null>>;

/** The contact columns named in `vars`, normalized (trimmed; blank optional fields become NULL). */
export function contactValues(vars: Record<string, unknown>): ContactValues {
  const values: Record<string, string | null> = {};
  for (const field of CONTACT_FIELDS) {
    if (vars[field] === undefined) continue;
    values[field] = (REQUIRED as readonly string[]).includes(field) ? String(vars[field]).trim() : optionalText(vars[field]);
  }
  return values as ContactValues;
}

/** A user-id rule shared by clients and contacts: the user must exist (blank unlinks). */
/** The user must exist and be one the caller reaches: a company cannot link (and so claim) another's identities or staff. */
export function userExists(ctx: CallContext): Rule {
  const reach = usersFilter(ctx);
  return {
    code: 'exists',
    message: 'Invalid user ID.',
    check: async (v) => {
      if (v === '' || v === null) return true;
      const id = wholeNumber(v);
      return id !== null && !!(await reach(trustDb(ctx.db).selectFrom('users').select('id').where('id', '=', id)).executeTakeFirst());
    },
  };
}
