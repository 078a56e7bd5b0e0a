import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { any, int, object, string } from '../../kernel/parameter';
import { bool, int as count, inputs, listOf, mapOf, money, record, string as text } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { toStored } from '../../kernel/money';
import { activeTaxes, taxesFor } from '../../billing/applicable-taxes';
import { HelperInputError, linesFromItems, taxTotals } from '../../billing/invoice-helpers';
import { TAX_RULES } from '../invoices.fields';

const TAX_TOTALS = record({
  tax: listOf(record({ id: count({ nullable: true }), name: text(), percentage: text({ format: 'decimal' }), amount: money(), level: count({ enum: [1, 2] }) }), {
    description: 'The tax of each level.',
  }),
  tax_subtotal: money({ description: 'The inclusive taxes (contained in the line).' }),
  tax_total: money({ description: 'Every tax.' }),
  line_total: money({ description: 'The line with its inclusive taxes.' }),
  line_total_w_tax: money({ description: 'The line with every tax.' }),
});

/** What makeLinesFromItems reads: the reference's items, each with its taxes and discounts. */
const ITEMS_VARS = inputs({
  items: listOf(
    record({
      description: text(),
      qty: text({ format: 'decimal' }),
      price: money(),
      taxes: listOf(mapOf(text()), { description: 'Tax rules as invoices/getTaxRules lists them; a line is taxable when it has any.' }),
      discounts: listOf(record({ description: text(), total: money() })),
    }),
  ),
});
const LINES = listOf(record({ service_id: count({ nullable: true }), description: text(), qty: text({ format: 'decimal' }), amount: money(), order: count(), tax: bool() }), {
  description: 'Lines as an invoice is added with them (vars[lines]).',
});

/** Runs a pure helper, answering a bad input as the 400 it names. */
function checked<T>(compute: () => T): T {
  try {
    return compute();
  } catch (error) {
    if (error instanceof HelperInputError) throw TallyError.invalid({ [error.field]: { [error.code]: error.message } });
    throw error;
  }
}

/**
 * The reference's invoice helpers that need no stored invoice: invoice types, the taxes a location
 * pays, the taxes on one line, and lines made from priced items. Money is Tally's (exact decimals,
 * core/billing/totals.ts). A facet of the invoices model, so these are `invoices/...` methods.
 */
@facet('invoices')
export class InvoiceHelpers {
  constructor(private readonly ctx: CallContext) {}

  @callable({ description: 'The invoice types and their names.', verb: 'GET', returns: mapOf(text()) })
  getTypes() {
    return { standard: 'Standard', proforma: 'Pro Forma' };
  }

  @callable({
    description:
      "The company's active taxes a client at country (ISO 3166-1 alpha-2) and state (ISO 3166-2 subdivision, without the country) pays: per level, the one matching the place most closely (country and state, else country, else everywhere). Another company_id has none.",
    verb: 'GET',
    params: [int('company_id'), string('country', { default: null }), string('state', { default: null })],
    returns: TAX_RULES,
  })
  async getTaxRulesByLocation(companyId: number, country: string | null, state: string | null) {
    if (companyId !== this.ctx.companyId) return [];
    const rules = taxesFor(await activeTaxes(this.ctx.db, this.ctx.companyId), { country: country || null, state: state || null });
    return rules.map((t) => ({ id: t.id, level: t.level, name: t.name, amount: toStored(t.rate), type: t.type }));
  }

  @callable({
    description:
      'The taxes on one taxable line of line_subtotal (qty × unit cost) under taxes[i][id|level|name|amount (percent)|type (exclusive, inclusive)], each rounded to 2 places, as invoices/getTaxRules lists them. Tally does not cascade taxes: taxes[i][cascade] set is refused.',
    verb: 'GET',
    params: [string('line_subtotal', { example: '100.00' }), any('taxes', { default: [] })],
    returns: TAX_TOTALS,
  })
  getTaxTotals(lineSubtotal: string, taxes: unknown) {
    return checked(() => taxTotals(lineSubtotal, taxes));
  }

  @callable({
    description:
      'Invoice lines from vars[items][i][description|qty|price|taxes|discounts]: a line per item (taxable when it has taxes), then a line per discount (vars[items][i][discounts][j][description|total]), in order; an invoice is added with them as vars[lines].',
    verb: 'GET',
    params: [object('vars', { default: {} })],
    vars: ITEMS_VARS,
    returns: LINES,
  })
  makeLinesFromItems(vars: Record<string, unknown>) {
    return checked(() => linesFromItems(vars));
  }
}
