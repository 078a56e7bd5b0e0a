import { ColumnDataType, Kysely } from 'kysely';
import { isPostgres } from './is-postgres';

/**
 * Money columns hold exact decimals with four places: numeric(30,4) on PostgreSQL, which the pg
 * driver answers as strings; text on SQLite, whose NUMERIC affinity would turn them into floats.
 * All arithmetic is done with decimal.js in the models, never in SQL.
 */
export function moneyType(db: Kysely<any>): ColumnDataType {
  return isPostgres(db) ? 'numeric(30, 4)' : 'text';
}

/** Digits numeric(30,4) holds before the decimal point. */
export const MONEY_INTEGER_DIGITS = 26;

/**
 * Every column the migrations create with moneyType(). PostgreSQL's catalogue says which columns
 * are numeric(30,4); SQLite's only says "text", so the input rules (column-limits.ts) learn them
 * here to refuse the same amounts on both databases. spec/core/db/money-columns.spec.ts compares
 * this list with PostgreSQL's catalogue: a migration that adds a money column and forgets it here
 * fails that spec.
 */
export const MONEY_COLUMNS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    taxes: ['rate'],
    invoices: ['subtotal', 'tax', 'total', 'paid'],
    invoice_lines: ['qty', 'amount'],
    invoice_taxes: ['rate', 'amount'],
    transactions: ['amount', 'refunded'],
    transaction_applied: ['amount'],
    transaction_refunds: ['amount'],
    pricings: ['price', 'price_renews', 'setup_fee', 'cancel_fee'],
    coupon_amounts: ['amount'],
    services: ['override_price'],
    invoice_recur_lines: ['qty', 'amount'],
    package_option_pricing: ['price', 'price_renews', 'setup_fee', 'cancel_fee'],
    charge_attempts: ['amount'],
  }).map(([table, columns]) => [table, new Set(columns)]),
);

export function isMoneyColumn(table: string, column: string): boolean {
  return MONEY_COLUMNS.get(table)?.has(column) ?? false;
}
