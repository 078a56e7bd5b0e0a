import { Tx } from '../db/schema';
import { is } from '../kernel/input-rules';

/** Tables of company records a `vars[...][]` list of ids may name. */
type CompanyTable = 'package_groups' | 'package_option_groups';

/**
 * A `vars[key][]` list of ids of the company's records in `table` (a list, index-keyed object, one
 * id, or '' for none), each once, in the order given; `valid` is false when one is not the
 * company's (another company's id is as unknown as a missing one).
 */
export async function readCompanyIds(db: Tx, table: CompanyTable, companyId: number, raw: unknown): Promise<{ ids: number[]; valid: boolean }> {
  const given = Array.isArray(raw) ? raw : raw && typeof raw === 'object' ? Object.values(raw) : raw === '' || raw === null ? [] : [raw];
  const ids: number[] = [];
  let valid = true;
  for (const value of given) {
    const found = is.integer(value) ? await db.selectFrom(table).select('id').where('company_id', '=', companyId).where('id', '=', Number(value)).executeTakeFirst() : undefined;
    if (!found) valid = false;
    else if (!ids.includes(found.id)) ids.push(found.id);
  }
  return { ids, valid };
}
