import { Tx } from '../../db/schema';
import { stored } from '../../kernel/money';
import { reusedSelect } from '../../kernel/reused-select';
import { TaxRule } from '../invoices/totals';

export interface Location {
  readonly country: string | null;
  readonly state: string | null;
}

/**
 * The taxes a client pays: for each level (1 and 2, as in the reference system), the company's
 * active tax that matches the client's address most closely: country and state, else the whole
 * country, else everywhere. A client without a country pays only taxes that apply everywhere.
 */
export async function applicableTaxes(db: Tx, companyId: number, where: Location): Promise<TaxRule[]> {
  return taxesFor(await activeTaxes(db, companyId), where);
}

/** The company's active taxes, in id order: what taxesFor chooses from (read once for many clients). */
export const activeTaxes = reusedSelect((db: Tx, companyId: number) =>
  db
    .selectFrom('taxes')
    .select(['id', 'level', 'name', 'rate', 'type', 'country', 'state'])
    .where('company_id', '=', companyId)
    .where('status', '=', 'active')
    .orderBy('id'),
);

/** The taxes of `activeTaxes` a client at `where` pays, one per level. */
export function taxesFor(rows: Awaited<ReturnType<typeof activeTaxes>>, where: Location): TaxRule[] {
  const best = new Map<number, { row: (typeof rows)[number]; score: number }>();
  for (const row of rows) {
    const score = matchScore(row, where);
    if (score < 0) continue;
    const current = best.get(row.level);
    if (!current || score > current.score) best.set(row.level, { row, score });
  }
  return [...best.keys()]
    .sort((a, b) => a - b)
    .map((level) => {
      const { row } = best.get(level)!;
      return { id: row.id, level: row.level, name: row.name, rate: stored(row.rate), type: row.type === 'inclusive' ? 'inclusive' : 'exclusive' };
    });
}

/** -1: does not apply; 0: everywhere; 1: the client's country; 2: the client's country and state. */
function matchScore(tax: { country: string | null; state: string | null }, where: Location): number {
  if (tax.country === null) return 0;
  if (tax.country !== where.country) return -1;
  if (tax.state === null) return 1;
  return tax.state === where.state ? 2 : -1;
}
