import { Tx } from '../../db/schema';
import { is, Rule, RuleSet } from '../../kernel/input-rules';
import { parseDecimal } from '../../kernel/money';
import { parseTimestamp } from '../../kernel/timestamps';
import { findClient } from '../../billing/client-store';
import { findCurrency } from '../../billing/find-currency';
import { CustomTypes } from '../../billing/custom-types';
import { optionalText, wholeNumber } from '../../billing/values';
import { MESSAGES } from '../../billing/invoice-rules';
import { allocationAmount } from './allocations';

/** How a payment was made, as the reference system records it: card, bank (ACH), or anything else. */
export const TRANSACTION_TYPES = ['cc', 'ach', 'other'] as const;

/** The reference's transaction statuses; Tally adds `refunded` (set by transactions/refund, never given). */
export const TRANSACTION_STATUSES = ['approved', 'declined', 'void', 'error', 'pending', 'returned'] as const;

const textUpTo = (max: number): Rule => ({ code: 'length', message: `The value may be at most ${max} characters long.`, check: (v) => String(v).length <= max });

/** The reference's optional links of a transaction, checked against the caller's company (and, for the account, the client: the transaction's when editing, else vars[client_id]). */
export function linkRules(db: Tx, companyId: number, clientId?: number): RuleSet {
  return {
    status: { ifSet: true, rules: [{ code: 'format', message: 'Invalid status.', check: is.oneOf(TRANSACTION_STATUSES) }] },
    reference_id: { ifSet: true, rules: [textUpTo(255)] },
    message: { ifSet: true, rules: [textUpTo(65535)] },
    gateway_id: {
      ifSet: true,
      rules: [{ code: 'exists', message: 'Invalid gateway ID.', check: async (v) => blank(v) || (await gatewayName(db, companyId, v)) !== null }],
    },
    parent_transaction_id: {
      ifSet: true,
      rules: [
        {
          code: 'exists',
          message: 'Invalid transaction ID.',
          check: async (v) =>
            blank(v) ||
            !!(await db
              .selectFrom('transactions')
              .select('id')
              .where('id', '=', wholeNumber(v) ?? -1)
              .where('company_id', '=', companyId)
              .executeTakeFirst()),
        },
      ],
    },
    // The card or bank account paid with: one of the client's (the payment's, or the edited transaction's).
    account_id: {
      ifSet: true,
      rules: [
        {
          code: 'exists',
          message: 'Invalid account ID.',
          check: async (v, all) =>
            blank(v) ||
            !!(await db
              .selectFrom('accounts')
              .select('id')
              .where('id', '=', wholeNumber(v) ?? -1)
              .where('company_id', '=', companyId)
              .where('client_id', '=', clientId ?? wholeNumber(all.client_id) ?? -1)
              .executeTakeFirst()),
        },
      ],
    },
    transaction_type_id: { ifSet: true, rules: [new CustomTypes(db, companyId, 'transaction_types', 'type_id').exists('Invalid transaction type ID.')] },
  };
}

const blank = (v: unknown) => v === undefined || v === null || v === '';

export const AMOUNT_MESSAGES = {
  format: 'The amount must be a number.',
  minimum: 'The amount must be greater than 0.',
} as const;

/** A positive decimal amount, as payments and refunds take it. */
export function amountRules(): Rule[] {
  return [
    { code: 'format', message: AMOUNT_MESSAGES.format, check: (v) => parseDecimal(v) !== null, final: true },
    { code: 'minimum', message: AMOUNT_MESSAGES.minimum, check: (v) => parseDecimal(v)!.toDecimalPlaces(4).greaterThan(0) },
  ];
}

/** What may be given with `vars[invoices][i][amount]`: blank (pay what is due) or a positive amount. */
export const allocationAmountRules = (listName = 'invoices'): RuleSet => ({
  [`${listName}[][amount]`]: [
    {
      code: 'format',
      message: 'The amount to apply must be a number greater than 0.',
      check: (v) => v === undefined || v === '' || !!allocationAmount(v)?.greaterThan(0),
    },
  ],
});

/** The rules of transactions/add. */
export function paymentRules(db: Tx, companyId: number, timezone: string): RuleSet {
  return {
    client_id: [{ code: 'exists', message: MESSAGES.client, check: async (v) => wholeNumber(v) !== null && !!(await findClient(db, companyId, wholeNumber(v)!)) }],
    amount: amountRules(),
    currency: [
      { code: 'length', message: MESSAGES.currencyLength, check: (v) => typeof v === 'string' && v.length === 3, final: true },
      { code: 'format', message: MESSAGES.currencyFormat, check: (v) => /^[A-Z]{3}$/.test(v), final: true },
      { code: 'exists', message: MESSAGES.currencyExists, check: async (v) => !!(await findCurrency(db, companyId, v)) },
    ],
    type: { ifSet: true, rules: [{ code: 'format', message: 'The type must be cc, ach or other.', check: is.oneOf(TRANSACTION_TYPES) }] },
    gateway: { ifSet: true, rules: [{ code: 'length', message: 'The gateway name may be at most 128 characters long.', check: (v) => String(v).length <= 128 }] },
    reference: {
      ifSet: true,
      rules: [
        { code: 'length', message: 'The reference may be at most 255 characters long.', check: (v) => String(v).length <= 255, final: true },
        { code: 'unique', message: REFERENCE_TAKEN, check: async (v, all) => referenceFree(db, companyId, optionalText(all.gateway) ?? (await gatewayName(db, companyId, all.gateway_id)), v) },
      ],
    },
    date_added: { ifSet: true, rules: [{ code: 'format', message: 'The date is in an invalid date format.', check: (v) => typeof v === 'string' && parseTimestamp(v, timezone) !== null }] },
    ...allocationAmountRules(),
    ...linkRules(db, companyId),
  };
}

export const REFERENCE_TAKEN = 'The gateway has already recorded a transaction with this reference.';

/**
 * The name of the company's installed gateway `gatewayId` (null for none): a payment recorded with
 * vars[gateway_id] alone is kept under that name too, so the one-reference-per-gateway rule and its
 * unique index (company, gateway, reference) hold for it as for one recorded with vars[gateway].
 */
export async function gatewayName(db: Tx, companyId: number, gatewayId: unknown): Promise<string | null> {
  const id = wholeNumber(gatewayId);
  if (id === null) return null;
  const row = await db.selectFrom('extensions_installed').select('name').where('id', '=', id).where('type', '=', 'gateway').where('company_id', '=', companyId).executeTakeFirst();
  return row?.name ?? null;
}

/** A gateway's reference is recorded once (a retried notification must not pay twice). */
async function referenceFree(db: Tx, companyId: number, gateway: string | null, reference: unknown): Promise<boolean> {
  const [name, ref] = [gateway, optionalText(reference)];
  if (name === null || ref === null) return true;
  const row = await db.selectFrom('transactions').select('id').where('company_id', '=', companyId).where('gateway', '=', name).where('reference', '=', ref).executeTakeFirst();
  return !row;
}
