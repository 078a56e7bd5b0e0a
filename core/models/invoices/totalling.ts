import { Tx } from '../../db/schema';
import { TallyError } from '../../kernel/tally-error';
import { applicableTaxes, TaxedClient } from '../../billing/applicable-taxes';
import { findCurrency } from '../../billing/find-currency';

type Currency = Awaited<ReturnType<typeof findCurrency>>;
import { MESSAGES } from '../../billing/invoice-rules';
import { LineInput } from '../../billing/lines';
import { computeTotals, Totals } from '../../billing/totals';

/**
 * Totals lines for a client in a currency: the client's taxes (from its address; none when it is
 * tax exempt) on the taxable lines, rounded to the currency's precision. A negative total is refused: credits are given as
 * payments, not as invoices. `known`: the currency as this transaction already read it.
 */
export async function totalFor(db: Tx, companyId: number, systemKey: string, client: TaxedClient, currencyCode: string, lines: readonly LineInput[], known?: Currency): Promise<Totals> {
  const currency = known?.code === currencyCode ? known : await findCurrency(db, companyId, currencyCode);
  // Checked by the rules already; only a currencies/delete racing this call gets here.
  if (!currency) throw TallyError.invalid({ currency: { exists: MESSAGES.currencyExists } });
  const rules = lines.some((l) => l.taxable) ? await applicableTaxes(db, companyId, client, systemKey) : [];
  const totals = computeTotals(lines, rules, currency.precision);
  if (totals.total.isNegative()) throw TallyError.invalid({ total: { minimum: 'The invoice total cannot be negative; give credit with a payment instead.' } });
  return totals;
}
