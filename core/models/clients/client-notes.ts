import { Tx } from '../../db/schema';
import { is, RuleSet } from '../../kernel/input-rules';
import { TallyError } from '../../kernel/tally-error';
import { truthy } from '../../billing/values';

export const NOTE_COLUMNS = [
  'client_notes.id',
  'client_notes.client_id',
  'client_notes.staff_id',
  'client_notes.title',
  'client_notes.description',
  'client_notes.stickied',
  'client_notes.date_added',
  'client_notes.date_updated',
] as const;

export const NOTE_ORDER: Record<string, string> = {
  date_added: 'client_notes.date_added',
  date_updated: 'client_notes.date_updated',
  title: 'client_notes.title',
  id: 'client_notes.id',
};

/** Notes on the company's clients: a note of another company's client is never found. */
export function noteQuery(db: Tx, companyId: number) {
  return db.selectFrom('client_notes').innerJoin('clients', 'clients.id', 'client_notes.client_id').select(NOTE_COLUMNS).where('clients.company_id', '=', companyId);
}

type NoteRow = Awaited<ReturnType<ReturnType<typeof noteQuery>['executeTakeFirstOrThrow']>>;

export function presentNote(row: NoteRow) {
  return { ...row, stickied: Boolean(row.stickied) };
}

export const invalidNote = () => TallyError.invalid({ note_id: { exists: 'Invalid note ID.' } });

export function noteRules(ifSet: boolean): RuleSet {
  return {
    title: {
      ifSet,
      rules: [
        { code: 'empty', message: 'Please enter a title for this note.', check: is.present, final: true },
        { code: 'length', message: 'The title may be at most 255 characters long.', check: (v) => String(v).trim().length <= 255 },
      ],
    },
    description: { ifSet: true, rules: [{ code: 'length', message: 'The note may be at most 65535 characters long.', check: (v) => String(v ?? '').length <= 65535 }] },
  };
}

/** The columns a note's vars set: title, description and stickied (true/false, 1/0). */
export function noteValues(vars: Record<string, unknown>): { title?: string; description?: string | null; stickied?: number } {
  const values: { title?: string; description?: string | null; stickied?: number } = {};
  if (vars.title !== undefined) values.title = String(vars.title).trim();
  if (vars.description !== undefined) values.description = vars.description === null ? null : String(vars.description);
  if (vars.stickied !== undefined) values.stickied = truthy(vars.stickied) ? 1 : 0;
  return values;
}

/**
 * The staff member who writes a note: a staff member of the company, or 0 for a note written
 * through the API by no one in particular (stored as null).
 */
export async function noteAuthor(db: Tx, companyId: number, staffId: number): Promise<number | null> {
  if (staffId === 0) return null;
  const staff = await db.selectFrom('staff').select('id').where('id', '=', staffId).where('company_id', '=', companyId).executeTakeFirst();
  if (!staff) throw TallyError.invalid({ staff_id: { exists: 'Invalid staff ID; give a staff member of the company, or 0 for none.' } });
  return staff.id;
}
