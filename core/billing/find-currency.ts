import { Tx } from '../db/schema';
import { reusedSelect } from '../kernel/reused-select';

/** A currency's stored columns, as the currencies model answers them. */
export const CURRENCY_COLUMNS = ['code', 'company_id', 'format', 'precision', 'prefix', 'suffix', 'exchange_rate', 'exchange_updated'] as const;

/** One currency of one company, or undefined: invoices, accounts, pricings and coupons price in it. */
export async function findCurrency(db: Tx, companyId: number, code: string) {
  const [row] = await currencyByCode(db, companyId, code);
  return row as typeof row | undefined;
}

const currencyByCode = reusedSelect((db: Tx, companyId: number, code: string) => db.selectFrom('currencies').select(CURRENCY_COLUMNS).where('company_id', '=', companyId).where('code', '=', code));
