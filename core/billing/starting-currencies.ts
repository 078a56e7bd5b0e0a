import { Tx } from '../db/schema';

/** What a new company can bill in from the start; more are added with currencies/add. */
export const STARTING_CURRENCIES = [
  { code: 'USD', precision: 2, format: '#,###.##', prefix: '$', suffix: '' },
  { code: 'EUR', precision: 2, format: '#.###,##', prefix: '€', suffix: '' },
  { code: 'GBP', precision: 2, format: '#,###.##', prefix: '£', suffix: '' },
] as const;

/** Gives a company the starting currencies; safe to run twice (companies/add and first start call it). */
export async function seedCurrencies(db: Tx, companyId: number): Promise<void> {
  await db
    .insertInto('currencies')
    .values(STARTING_CURRENCIES.map((c) => ({ company_id: companyId, ...c })))
    .onConflict((oc) => oc.columns(['company_id', 'code']).doNothing())
    .execute();
}
