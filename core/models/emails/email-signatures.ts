import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { int, object } from '../../kernel/parameter';
import { int as count, listOf, nothing, orFalse } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { PAGE_SIZE, pageOffset } from '../../kernel/paging';
import { ordered, readOrder } from '../../billing/ordering';
import { mailDb } from '../../delivery/mail-tables';
import { findSignature, signatureQuery } from '../../delivery/signature-store';
import { SIGNATURE } from '../emails.fields';

const invalidSignature = () => TallyError.invalid({ email_signature_id: { exists: 'Invalid email signature ID.' } });
const SIGNATURE_ORDER: Record<string, string> = { id: 'id', name: 'name' };
/** A signature is appended to every message of the emails that name it: kept to a size a mail can carry. */
const MAX_SIGNATURE = 20_000;

function signatureValues(vars: Record<string, unknown>, adding: boolean) {
  const errors: Record<string, Record<string, string>> = {};
  const values: { name?: string; text?: string; html?: string } = {};
  for (const name of ['name', 'text', 'html'] as const) {
    const given = vars[name];
    if (given === undefined || given === null) {
      if (adding && name !== 'html') errors[name] = { empty: `Please enter the signature's ${name === 'name' ? 'name' : 'text'}.` };
      else if (adding) values.html = '';
      continue;
    }
    if (typeof given !== 'string' || given.length > (name === 'name' ? 255 : MAX_SIGNATURE))
      errors[name] = { length: `The ${name} must be text of at most ${name === 'name' ? 255 : MAX_SIGNATURE} characters.` };
    else if (name !== 'html' && given.trim() === '') errors[name] = { empty: `Please enter the signature's ${name === 'name' ? 'name' : 'text'}.` };
    else values[name] = given;
  }
  if (Object.keys(errors).length) throw TallyError.invalid(errors);
  return values;
}

/**
 * The reference's email signatures: a company's text and HTML appended to the messages of the
 * emails that name one (emails/add or edit vars[email_signature_id]). A facet of the emails model.
 */
@facet('emails')
export class EmailSignatures {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description: "Add a signature: vars[name], vars[text], optional vars[html]; vars[company_id], when given, must be the caller's. Returns its id.",
    verb: 'POST',
    params: [object('vars')],
    returns: count(),
  })
  async addSignature(vars: Record<string, unknown>) {
    if (vars.company_id !== undefined && Number(vars.company_id) !== this.ctx.companyId)
      throw TallyError.invalid({ company_id: { exists: 'Invalid company ID; a credential adds signatures to its own company.' } });
    const values = signatureValues(vars, true);
    const row = await mailDb(this.ctx.db)
      .insertInto('email_signatures')
      .values({ company_id: this.ctx.companyId, name: values.name!, text: values.text!, html: values.html ?? '' })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  @callable({
    description: "Change one of the company's signatures: vars[name], vars[text], vars[html] (what is not given keeps its value).",
    verb: 'PUT',
    params: [int('email_signature_id'), object('vars')],
    returns: nothing(),
  })
  async editSignature(id: number, vars: Record<string, unknown>) {
    if (!(await findSignature(this.ctx.db, this.ctx.companyId, id))) throw invalidSignature();
    const values = signatureValues(vars, false);
    if (Object.keys(values).length) await mailDb(this.ctx.db).updateTable('email_signatures').set(values).where('id', '=', id).execute();
    return null;
  }

  @callable({ description: "Delete one of the company's signatures; one an email still uses is refused.", verb: 'DELETE', params: [int('email_signature_id')], returns: nothing() })
  async deleteSignature(id: number) {
    if (!(await findSignature(this.ctx.db, this.ctx.companyId, id))) throw invalidSignature();
    const used = await mailDb(this.ctx.db).selectFrom('mail_templates').select('id').where('company_id', '=', this.ctx.companyId).where('email_signature_id', '=', id).executeTakeFirst();
    if (used) throw TallyError.invalid({ email_signature_id: { in_use: 'The signature is used by at least one email and cannot be deleted.' } });
    await mailDb(this.ctx.db).deleteFrom('email_signatures').where('id', '=', id).execute();
    return null;
  }

  @callable({ description: "One of the company's signatures; false when it has none of that id.", verb: 'GET', params: [int('email_signature_id')], returns: orFalse(SIGNATURE) })
  async getSignature(id: number) {
    return (await findSignature(this.ctx.db, this.ctx.companyId, id)) ?? false;
  }

  @callable({
    description: "One page (25) of a company's signatures, by name; order_by[id|name]=ASC|DESC. Another company_id lists nothing.",
    verb: 'GET',
    params: [int('company_id'), int('page', { default: 1 }), object('order_by', { default: { name: 'ASC' } })],
    returns: listOf(SIGNATURE),
  })
  async getSignatureList(companyId: number, page: number, orderBy: unknown) {
    const query = ordered(signatureQuery(this.ctx.db, this.ctx.companyId).where('company_id', '=', companyId), readOrder(orderBy, SIGNATURE_ORDER), 'id');
    return this.present(await query.limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute());
  }

  @callable({ description: 'How many signatures a company has.', verb: 'GET', params: [int('company_id')], returns: count() })
  async getSignatureListCount(companyId: number) {
    return (await signatureQuery(this.ctx.db, this.ctx.companyId).where('company_id', '=', companyId).execute()).length;
  }

  @callable({ description: 'Every signature of a company. Another company_id lists nothing.', verb: 'GET', params: [int('company_id')], returns: listOf(SIGNATURE) })
  async getAllSignatures(companyId: number) {
    return this.present(await signatureQuery(this.ctx.db, this.ctx.companyId).where('company_id', '=', companyId).orderBy('id').execute());
  }

  private present(rows: Array<{ id: number; company_id: number; name: string; text: string; html: string }>) {
    return rows.map((r) => ({ ...r, id: Number(r.id), company_id: Number(r.company_id) }));
  }
}
