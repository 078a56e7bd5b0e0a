import { Amount, parseDecimal, sum, toStored } from '../kernel/money';
import { truthy } from './values';
import { parseQuantity } from './lines';
import { computeTotals, TaxRule } from './totals';

/** The places getTaxTotals rounds each tax to, as the reference's (round(…, 2)). */
const TAX_PLACES = 2;

/** A problem with one field of a helper's input, keyed as the API reports it. */
export class HelperInputError extends Error {
  constructor(
    readonly field: string,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const entries = (value: unknown): unknown[] => (Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : []);
const fields = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' ? (value as Record<string, unknown>) : {});

function decimal(value: unknown, field: string, message: string): Amount {
  const amount = parseDecimal(value);
  if (amount === null) throw new HelperInputError(field, 'format', message);
  return amount;
}

/**
 * The reference's getTaxTotals($line_subtotal, $taxes) on Tally's tax arithmetic (core/billing/totals):
 * each rule's tax on one taxable line of `line_subtotal`, rounded to two places; `tax` by level
 * (id, name, percentage, amount), `tax_subtotal` (the inclusive taxes), `tax_total` (all),
 * `line_total` (the line with its inclusive taxes, which Tally reads as contained in it: the
 * subtotal) and `line_total_w_tax` (with the exclusive ones too). Tally does not cascade taxes: a
 * rule with cascade set is refused rather than computed otherwise.
 */
export function taxTotals(lineSubtotal: unknown, taxes: unknown) {
  const subtotal = decimal(lineSubtotal, 'line_subtotal', 'The line subtotal must be a number.');
  const rules: TaxRule[] = entries(taxes).map((entry, i) => {
    const rule = fields(entry);
    if (rule.cascade !== undefined && rule.cascade !== null && rule.cascade !== '' && truthy(rule.cascade)) {
      throw new HelperInputError(`taxes[${i}][cascade]`, 'unsupported', 'Tally does not cascade taxes (a level 2 tax is never charged on the level 1 tax); leave cascade out or 0.');
    }
    const level = Number(rule.level ?? 1);
    if (level !== 1 && level !== 2) throw new HelperInputError(`taxes[${i}][level]`, 'format', 'A tax level is 1 or 2.');
    const type = rule.type ?? 'exclusive';
    if (type !== 'exclusive' && type !== 'inclusive') throw new HelperInputError(`taxes[${i}][type]`, 'format', 'A tax type is exclusive or inclusive.');
    const rate = decimal(rule.amount, `taxes[${i}][amount]`, 'A tax amount is a percentage, such as 8.875.');
    const id = rule.id === undefined || rule.id === null || rule.id === '' ? null : Number(rule.id);
    return { id: Number.isSafeInteger(id) ? id : null, level, name: String(rule.name ?? ''), rate, type };
  });
  const totals = computeTotals([{ qty: parseQuantity(1)!, amount: subtotal, taxable: true }], rules, TAX_PLACES);
  const inclusive = sum(totals.taxes.filter((t) => t.type === 'inclusive').map((t) => t.amount));
  const exclusive = sum(totals.taxes.filter((t) => t.type === 'exclusive').map((t) => t.amount));
  const byLevel = new Map<number, { id: number | null; name: string; percentage: string; amount: Amount }>();
  for (const t of totals.taxes) {
    const seen = byLevel.get(t.level);
    byLevel.set(t.level, { id: t.id, name: t.name, percentage: toStored(t.rate), amount: seen ? seen.amount.plus(t.amount) : t.amount });
  }
  return {
    tax: [...byLevel.keys()].sort().map((level) => ({ ...byLevel.get(level)!, level, amount: toStored(byLevel.get(level)!.amount) })),
    tax_subtotal: toStored(inclusive),
    tax_total: toStored(totals.tax),
    line_total: toStored(subtotal),
    line_total_w_tax: toStored(subtotal.plus(exclusive)),
  };
}

/**
 * The reference's makeLinesFromItems($vars): invoice lines from `vars[items]` (each `description`,
 * `qty`, `price`, `taxes` (any: the line is taxable), `discounts` (each `description` and `total`,
 * a line of its own after its item, taxable as its item)), in order; ready for invoices/add.
 */
export function linesFromItems(vars: unknown) {
  const lines: Array<{ service_id: null; description: string; qty: string; amount: string; order: number; tax: boolean }> = [];
  entries(fields(vars).items).forEach((entry, i) => {
    const item = fields(entry);
    const taxable = entries(item.taxes).length > 0;
    const qty = parseQuantity(item.qty);
    if (qty === null) throw new HelperInputError(`items[${i}][qty]`, 'format', 'An item quantity must be a number.');
    const price = decimal(item.price, `items[${i}][price]`, 'An item price must be a number.');
    lines.push({ service_id: null, description: String(item.description ?? ''), qty: toStored(qty), amount: toStored(price), order: lines.length, tax: taxable });
    entries(item.discounts).forEach((d, j) => {
      const discount = fields(d);
      const total = decimal(discount.total, `items[${i}][discounts][${j}][total]`, 'A discount total must be a number.');
      lines.push({ service_id: null, description: String(discount.description ?? ''), qty: toStored(parseQuantity(1)!), amount: toStored(total), order: lines.length, tax: taxable });
    });
  });
  return lines;
}
