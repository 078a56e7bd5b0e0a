import { Tx } from '../db/schema';
import { mailDb } from './mail-tables';

/** A company's email signatures: another company's are never found. */
export function signatureQuery(db: Tx, companyId: number) {
  return mailDb(db).selectFrom('email_signatures').select(['id', 'company_id', 'name', 'text', 'html']).where('company_id', '=', companyId);
}

export async function findSignature(db: Tx, companyId: number, id: number) {
  const row = await signatureQuery(db, companyId).where('id', '=', id).executeTakeFirst();
  return row ? { ...row, id: Number(row.id), company_id: Number(row.company_id) } : null;
}
