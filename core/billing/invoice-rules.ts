import { Tx } from '../db/schema';
import { is, Rule, RuleSet } from '../kernel/input-rules';
import { parseTimestamp } from '../kernel/timestamps';
import { findCurrency } from './find-currency';
import { findClientLocation } from './client-store';
import { wholeNumber } from './values';
import { Amount } from '../kernel/money';
import { truthOf } from '../kernel/truth-values';
import { LineReader, lineList, parseAmount, parseQuantity, remembered } from './lines';
import { lineServiceRule } from './line-services';

export const INVOICE_STATUSES = ['active', 'draft', 'proforma', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** The reference system's delivery methods; a method is only recorded here, sending is an extension's job. */
export const DELIVERY_METHODS = ['email', 'paper', 'interfax', 'postalmethods'] as const;

/** The reference system's messages, word for word (REFERENCE.md), plus `currency.format`/`exists`. */
export const MESSAGES = {
  client: 'Invalid client ID.',
  billed: 'The billed date is in an invalid date format.',
  due: 'The due date is in an invalid date format.',
  afterBilled: 'The date due must be on or after the date billed.',
  status: 'Invalid status.',
  currencyLength: 'The currency code must be 3 characters in length.',
  currencyFormat: 'The currency code must be three upper-case letters, such as USD.',
  currencyExists: "The currency is not one of the company's currencies (see currencies/getList).",
  description: 'Please enter a line item description.',
  qty: 'Please enter a quantity of 1 or more.',
  amount: 'The unit cost must be a number.',
  tax: 'The tax option of a line must be true or false.',
  delivery: 'The delivery method given does not exist.',
  autodebit: 'The autodebit date is in an invalid date format.',
  service: 'Invalid service ID.',
  lineId: 'Invalid line item ID.',
} as const;

const noteLength: Rule = { code: 'length', message: 'A note may be at most 65535 characters long.', check: (v) => String(v ?? '').length <= 65535 };

/** A line's tax flag: a boolean, or text spelling true or false. */
export const isTruthText = (v: unknown) => typeof v === 'boolean' || truthOf(String(v).trim()) !== undefined;

/** `vars[delivery]` as a list of method names (a single name is a list of one). */
export function deliveryList(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  if (typeof value === 'string') return [value];
  return (Array.isArray(value) ? value : Object.values(value as object)).map(String);
}

/**
 * The rules of invoices/add and invoices/edit, declared in the order the reference system reports
 * them: an empty add answers client_id, date_billed, date_due, currency, lines[0][description].
 * For an edit (`editing`), every field is checked only when given, and the line rules only when
 * `vars[lines]` is (it then replaces every line, so each given line must be complete).
 */
export class InvoiceRules implements LineReader {
  /** The client found while checking client_id (its id and location), so the add need not read it again. */
  client: Awaited<ReturnType<typeof findClientLocation>>;
  /** Likewise the currency found while checking currency. */
  currency: Awaited<ReturnType<typeof findCurrency>>;

  constructor(
    private readonly db: Tx,
    private readonly companyId: number,
    private readonly timezone: string,
  ) {}

  ruleSet(vars: Record<string, unknown>, editing: boolean): RuleSet {
    // An edit's lines are checked where they are merged into the stored ones (line-edits.ts).
    const lines = editing ? {} : this.lineRules();
    return {
      client_id: { ifSet: editing, rules: [this.clientExists()] },
      date_billed: { ifSet: editing, rules: [{ code: 'format', message: MESSAGES.billed, check: (v) => this.time(v) !== null }] },
      date_due: {
        ifSet: editing,
        rules: [
          { code: 'format', message: MESSAGES.due, check: (v) => this.time(v) !== null, final: true },
          { code: 'after_billed', message: MESSAGES.afterBilled, check: (v, all) => this.dueOnOrAfterBilled(v, all.date_billed) },
        ],
      },
      currency: { ifSet: editing, rules: this.currencyRules() },
      ...lines,
      delivery: { ifSet: true, rules: [{ code: 'exists', message: MESSAGES.delivery, check: (v) => deliveryList(v).every((m) => (DELIVERY_METHODS as readonly string[]).includes(m)) }] },
      status: { ifSet: true, rules: [{ code: 'format', message: MESSAGES.status, check: is.oneOf(INVOICE_STATUSES) }] },
      date_autodebit: { ifSet: true, rules: [{ code: 'format', message: MESSAGES.autodebit, check: (v) => v === '' || v === null || this.time(v) !== null }] },
      note_public: { ifSet: true, rules: [noteLength] },
      note_private: { ifSet: true, rules: [noteLength] },
    };
  }

  /** Each text read once: a date is checked, compared with another and then stored. */
  private readonly times = new Map<string, Date | null>();

  /** Each line's quantity and amount read once: checked here, then stored (readLines with these rules). */
  private readonly quantities = new Map<unknown, Amount | null>();
  private readonly amounts = new Map<unknown, Amount | null>();

  quantity(value: unknown): Amount | null {
    return remembered(this.quantities, value, parseQuantity);
  }

  amount(value: unknown): Amount | null {
    return remembered(this.amounts, value, parseAmount);
  }

  /** A timestamp of `vars`, read in the company's timezone when it names none. */
  time(value: unknown): Date | null {
    if (typeof value !== 'string') return null;
    let time = this.times.get(value);
    if (time === undefined) this.times.set(value, (time = parseTimestamp(value, this.timezone)));
    // A copy: a caller may change its Date without changing what the next caller reads.
    return time && new Date(time.getTime());
  }

  private dueOnOrAfterBilled(due: unknown, billed: unknown): boolean {
    const [dueAt, billedAt] = [this.time(due), this.time(billed)];
    // An unreadable billed date is reported on its own field; comparing with it would add noise.
    return !dueAt || !billedAt || dueAt.getTime() >= billedAt.getTime();
  }

  private clientExists(): Rule {
    return {
      code: 'exists',
      message: MESSAGES.client,
      check: async (v) => {
        const id = wholeNumber(v);
        this.client = id === null ? undefined : await findClientLocation(this.db, this.companyId, id);
        return !!this.client;
      },
    };
  }

  private currencyRules(): Rule[] {
    return [
      { code: 'length', message: MESSAGES.currencyLength, check: (v) => typeof v === 'string' && v.length === 3, final: true },
      { code: 'format', message: MESSAGES.currencyFormat, check: (v) => /^[A-Z]{3}$/.test(v), final: true },
      {
        code: 'exists',
        message: MESSAGES.currencyExists,
        check: async (v) => {
          this.currency = await findCurrency(this.db, this.companyId, v);
          return !!this.currency;
        },
      },
    ];
  }

  private lineRules(): RuleSet {
    return {
      'lines[][service_id]': { ifSet: true, rules: [lineServiceRule(this.db, this.companyId, () => this.client)] },
      'lines[][description]': [{ code: 'empty', message: MESSAGES.description, check: is.present }],
      'lines[][qty]': { ifSet: true, rules: [{ code: 'minimum', message: MESSAGES.qty, check: (v) => !!this.quantity(v)?.greaterThan(0) }] },
      // A missing list is reported once, as lines[0][description]; a given line needs its amount.
      'lines[][amount]': [{ code: 'format', message: MESSAGES.amount, check: (v, all) => lineList(all.lines).length === 0 || this.amount(v) !== null }],
      'lines[][tax]': { ifSet: true, rules: [{ code: 'format', message: MESSAGES.tax, check: isTruthText }] },
    };
  }
}
