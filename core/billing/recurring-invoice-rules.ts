import { Rule, RuleSet } from '../kernel/input-rules';
import { InvoiceRules } from './invoice-rules';
import { Period } from './renew-dates';
import { wholeNumber } from './values';

/** A recurring invoice renews every `term` of these (the reference's getPricingPeriods, without onetime). */
export const RECURRING_PERIODS = ['day', 'week', 'month', 'year'] as const satisfies readonly Period[];

/** The reference's messages (its language file), word for word. */
export const RECURRING_MESSAGES = {
  recurId: 'Invalid recurring invoice ID.',
  termFormat: 'The term should be a number.',
  termBounds: 'The term should be between 1 and 65535.',
  period: 'The period is invalid.',
  duration: 'The duration is invalid.',
  dateRenews: 'The recurring invoice renew date must be a valid date format.',
  dateLastRenewed: 'The last recurring invoice renew date must be a valid date format.',
  method: 'The delivery method given does not exist.',
  lineService: 'A recurring invoice line names no service (the reference keeps none on them); leave service_id out.',
  durationTime: 'The number of times an invoice recurs must be a number between 1 and 65535.',
  recurDateBilled: 'The date the next invoice is created must be a valid date format.',
} as const;

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A whole number from 1 to 65535 (a term, a duration), as the reference bounds both. */
export function inBounds(value: unknown): boolean {
  const n = wholeNumber(value);
  return n !== null && n >= 1 && n <= 65535;
}

const termRules: Rule[] = [
  { code: 'format', message: RECURRING_MESSAGES.termFormat, check: (v) => wholeNumber(v) !== null, final: true },
  { code: 'bounds', message: RECURRING_MESSAGES.termBounds, check: inBounds },
];
const periodRule: Rule = { code: 'format', message: RECURRING_MESSAGES.period, check: (v) => (RECURRING_PERIODS as readonly unknown[]).includes(v) };

/**
 * The rules of invoices/addRecurring and editRecurring, in the reference's order: client_id, term,
 * period, duration, currency, date_renews, date_last_renewed, lines, delivery. The client, currency,
 * line and delivery rules are invoices/add's (InvoiceRules, whose client and currency they find).
 * Where the reference lets term, period and date_renews be left out of an add and stores nothing
 * useful, Tally asks for them: a recurring invoice without them could never renew.
 */
export function recurringRuleSet(rules: InvoiceRules, vars: Record<string, unknown>, editing: boolean): RuleSet {
  const invoice = rules.ruleSet(vars, editing);
  const line = (field: string) => (editing ? {} : { [field]: invoice[field] });
  return {
    client_id: invoice.client_id,
    term: { ifSet: editing, rules: termRules },
    period: { ifSet: editing, rules: [periodRule] },
    duration: { ifSet: true, rules: [{ code: 'format', message: RECURRING_MESSAGES.duration, check: (v) => blank(v) || inBounds(v) }] },
    currency: invoice.currency,
    date_renews: { ifSet: editing, rules: [{ code: 'format', message: RECURRING_MESSAGES.dateRenews, check: (v) => rules.time(v) !== null }] },
    date_last_renewed: { ifSet: true, rules: [{ code: 'format', message: RECURRING_MESSAGES.dateLastRenewed, check: (v) => blank(v) || rules.time(v) !== null }] },
    // An edit's lines are checked where they are merged into the stored ones.
    ...line('lines[][description]'),
    ...line('lines[][qty]'),
    ...line('lines[][amount]'),
    ...line('lines[][tax]'),
    'lines[][service_id]': { ifSet: true, rules: [{ code: 'unsupported', message: RECURRING_MESSAGES.lineService, check: blank }] },
    delivery: invoice.delivery,
    note_public: invoice.note_public,
    note_private: invoice.note_private,
  };
}

/**
 * invoices/add's recurring part: `term` (blank: not recurring), then `period`, `duration`
 * ('indefinitely' or 'times' with `duration_time`) and `recur_date_billed` (when the next invoice is
 * made; blank: one term after date_billed).
 */
export function recurringPartRules(rules: InvoiceRules): RuleSet {
  const recurs = (all: Record<string, unknown>) => !blank(all.term);
  return {
    term: {
      ifSet: true,
      rules: [
        { ...termRules[0], check: (v) => blank(v) || wholeNumber(v) !== null, final: true },
        { ...termRules[1], check: (v) => blank(v) || inBounds(v) },
      ],
    },
    period: [{ ...periodRule, check: (v, all) => !recurs(all) || periodRule.check(v, all) }],
    duration: [{ code: 'format', message: RECURRING_MESSAGES.duration, check: (v, all) => !recurs(all) || blank(v) || v === 'indefinitely' || v === 'times' }],
    duration_time: [{ code: 'format', message: RECURRING_MESSAGES.durationTime, check: (v, all) => !recurs(all) || all.duration !== 'times' || inBounds(v) }],
    recur_date_billed: [{ code: 'format', message: RECURRING_MESSAGES.recurDateBilled, check: (v, all) => !recurs(all) || blank(v) || rules.time(v) !== null }],
  };
}
