import { Amount, roundTo, sum, toStored } from '../kernel/money';

/** A line as totals see it: quantity × unit amount, and whether the client's taxes apply to it. */
export interface LineAmounts {
  readonly qty: Amount;
  readonly amount: Amount;
  readonly taxable: boolean;
}

/** A tax rule in force for the invoice: a percentage, either added on top or contained in the amounts. */
export interface TaxRule {
  readonly id: number | null;
  readonly level: number;
  readonly name: string;
  /** Percent, e.g. 20 for 20 %. */
  readonly rate: Amount;
  readonly type: 'inclusive' | 'exclusive';
}

export interface AppliedTax extends TaxRule {
  readonly amount: Amount;
}

export interface Totals {
  /** qty × amount per line, at the four stored places. */
  readonly lineTotals: readonly Amount[];
  /** Σ line totals, rounded to the currency's precision. */
  readonly subtotal: Amount;
  /** Every tax, inclusive and exclusive, each rounded to the currency's precision. */
  readonly tax: Amount;
  /** subtotal + the exclusive taxes (inclusive taxes are already inside the line amounts). */
  readonly total: Amount;
  readonly taxes: readonly AppliedTax[];
}

/**
 * Totals an invoice. Each tax is computed once on the sum of the taxable lines and rounded once,
 * rather than per line, so a hundred lines never drift a cent from what the rate says.
 *
 * Inclusive taxes are the part of the taxable amount that is tax: with inclusive rates r₁..rₙ the
 * net is base / (1 + Σr/100) and each contains net × r/100. Exclusive taxes are added on the net,
 * so a line carrying both kinds is never taxed on tax.
 */
export function computeTotals(lines: readonly LineAmounts[], rules: readonly TaxRule[], precision: number): Totals {
  const lineTotals = lines.map((line) => line.qty.times(line.amount).toDecimalPlaces(4));
  const subtotal = roundTo(sum(lineTotals), precision);
  const taxableBase = sum(lineTotals.filter((_, i) => lines[i].taxable));
  const inclusiveRate = sum(rules.filter((r) => r.type === 'inclusive').map((r) => r.rate));
  const net = taxableBase.dividedBy(inclusiveRate.dividedBy(100).plus(1));
  const taxes = rules.map((rule) => ({ ...rule, amount: roundTo(net.times(rule.rate).dividedBy(100), precision) }));
  const exclusive = sum(taxes.filter((t) => t.type === 'exclusive').map((t) => t.amount));
  return {
    lineTotals,
    subtotal,
    tax: sum(taxes.map((t) => t.amount)),
    total: subtotal.plus(exclusive),
    taxes,
  };
}

/** The money columns of an invoice, as stored. */
export function storedTotals(totals: Totals): { subtotal: string; tax: string; total: string } {
  return { subtotal: toStored(totals.subtotal), tax: toStored(totals.tax), total: toStored(totals.total) };
}
