import { Tx } from '../db/schema';
import { is, RuleSet } from '../kernel/input-rules';
import { TallyError } from '../kernel/tally-error';
import { lineList } from './lines';
import { wholeNumber } from './values';

export const NUMBER_TYPES = { phone: 'Phone', fax: 'Fax' };
export const NUMBER_LOCATIONS = { home: 'Home', work: 'Work', mobile: 'Mobile' };
export const NUMBER_COLUMNS = ['contact_numbers.id', 'contact_numbers.contact_id', 'contact_numbers.number', 'contact_numbers.type', 'contact_numbers.location'] as const;

/** The reference's default order, `FIELD(location,'work','home','mobile')`, and the plain columns. */
export const WORK_HOME_MOBILE = "FIELD(location,'work','home','mobile')";

export const invalidNumber = () => TallyError.invalid({ contact_number_id: { exists: 'Invalid contact number ID.' } });

/** Rules of one number; `ifSet` for edits. A blank type is phone and a blank location home, as the reference defaults them. */
export function numberRules(ifSet: boolean): RuleSet {
  return {
    number: {
      ifSet,
      rules: [
        { code: 'empty', message: 'Please enter a number.', check: is.present, final: true },
        { code: 'length', message: 'The number may be at most 64 characters long.', check: (v) => String(v).trim().length <= 64 },
      ],
    },
    type: { ifSet: true, rules: [{ code: 'format', message: 'The number type must be phone or fax.', check: (v) => v === '' || Object.hasOwn(NUMBER_TYPES, String(v)) }] },
    location: { ifSet: true, rules: [{ code: 'format', message: 'The number location must be home, work or mobile.', check: (v) => v === '' || Object.hasOwn(NUMBER_LOCATIONS, String(v)) }] },
  };
}

/** The same rules for each entry of `vars[numbers]`, reported as numbers[i][field]. */
export const numbersRules: RuleSet = {
  'numbers[][type]': numberRules(true).type,
  'numbers[][location]': numberRules(true).location,
};

export function numberValues(vars: Record<string, unknown>, defaults: boolean): { number?: string; type?: string; location?: string } {
  const values: { number?: string; type?: string; location?: string } = {};
  if (vars.number !== undefined) values.number = String(vars.number).trim();
  if (vars.type !== undefined || defaults) values.type = String(vars.type ?? '') || 'phone';
  if (vars.location !== undefined || defaults) values.location = String(vars.location ?? '') || 'home';
  return values;
}

/** Adds each non-blank entry of `vars[numbers]` to a new contact. */
export async function addNumbers(db: Tx, contactId: number, numbers: unknown): Promise<void> {
  const rows = lineList(numbers).filter((n) => is.present(n.number));
  for (const n of rows)
    await db
      .insertInto('contact_numbers')
      .values({ number: '', ...numberValues(n, true), contact_id: contactId } as never)
      .execute();
}

/**
 * `vars[numbers]` of contacts/edit, as the reference reads it: an entry with an id changes that
 * number (a blank number removes it), an entry without one adds a number.
 */
export async function editNumbers(db: Tx, contactId: number, numbers: unknown): Promise<void> {
  for (const entry of lineList(numbers)) {
    const id = wholeNumber(entry.id);
    if (id === null) {
      if (is.present(entry.number))
        await db
          .insertInto('contact_numbers')
          .values({ number: '', ...numberValues(entry, true), contact_id: contactId } as never)
          .execute();
      continue;
    }
    const owned = db.deleteFrom('contact_numbers').where('id', '=', id).where('contact_id', '=', contactId);
    if (!is.present(entry.number)) await owned.execute();
    else await db.updateTable('contact_numbers').set(numberValues(entry, false)).where('id', '=', id).where('contact_id', '=', contactId).execute();
  }
}
