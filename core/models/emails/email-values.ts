import { Tx } from '../../db/schema';
import { TallyError } from '../../kernel/tally-error';
import { isHeaderText, isMailAddress } from '../../delivery/header-safety';
import { findSignature } from '../../delivery/signature-store';

export interface EmailValues {
  subject?: string;
  text?: string;
  html?: string;
  /** The reference's email fields, as columns of mail_templates. */
  options: { from_address?: string | null; from_name?: string | null; email_signature_id?: number | null; include_attachments?: number; status?: string };
}

/**
 * Reads an email's vars (emails/add, and the reference fields of an edit): the sender is checked as
 * a header (no line breaks, a valid address), the signature must be the company's own. `adding`:
 * subject, text and html are required.
 */
export async function emailValues(db: Tx, companyId: number, vars: Record<string, unknown>, adding: boolean): Promise<EmailValues> {
  const errors: Record<string, Record<string, string>> = {};
  const values: EmailValues = { options: {} };
  for (const name of ['subject', 'text', 'html'] as const) {
    const given = vars[name];
    if (given === undefined || given === null) {
      if (adding && name === 'subject') errors.subject = { empty: 'Please enter a subject.' };
      else if (adding) values[name] = '';
    } else if (typeof given !== 'string') errors[name] = { format: 'Please give the text of the template.' };
    else values[name] = given;
  }
  if (vars.from !== undefined) {
    const from = vars.from === null || vars.from === '' ? null : String(vars.from);
    if (from !== null && !isMailAddress(from)) errors.from = { format: 'Please enter a valid from address.' };
    values.options.from_address = from;
  }
  if (vars.from_name !== undefined) {
    const name = vars.from_name === null || vars.from_name === '' ? null : String(vars.from_name);
    if (name !== null && (!isHeaderText(name) || name.length > 255)) errors.from_name = { header: 'The from name may not hold line breaks or control characters, and at most 255 characters.' };
    values.options.from_name = name;
  }
  if (vars.email_signature_id !== undefined) {
    const id = vars.email_signature_id === null || vars.email_signature_id === '' ? null : Number(vars.email_signature_id);
    if (id !== null && !(Number.isSafeInteger(id) && (await findSignature(db, companyId, id)))) errors.email_signature_id = { exists: 'Invalid email signature ID.' };
    values.options.email_signature_id = id;
  }
  if (vars.include_attachments !== undefined) {
    const include = String(vars.include_attachments);
    if (include !== '0' && include !== '1') errors.include_attachments = { format: 'include_attachments must be 1 or 0.' };
    values.options.include_attachments = Number(include);
  }
  if (vars.status !== undefined) {
    if (vars.status !== 'active' && vars.status !== 'inactive') errors.status = { format: 'The status must be active or inactive.' };
    values.options.status = String(vars.status);
  }
  if (Object.keys(errors).length) throw TallyError.invalid(errors);
  return values;
}
