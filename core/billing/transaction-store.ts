import { Tx } from '../db/schema';
import { Amount, stored, sum, toStored } from '../kernel/money';
import { TallyError } from '../kernel/tally-error';
import { forUpdate } from './for-update';

const COLUMNS = [
  'id',
  'client_id',
  'amount',
  'currency',
  'type',
  'transaction_type_id',
  'account_id',
  'gateway_id',
  'gateway',
  'reference',
  'parent_transaction_id',
  'reference_id',
  'message',
  'status',
  'refunded',
  'date_added',
] as const;

/** Statuses whose money is the client's: only these pay invoices and count as credit. */
export const SETTLED_STATUSES = ['approved', 'refunded'];

export const invalidTransaction = () => TallyError.invalid({ transaction_id: { exists: 'Invalid transaction ID.' } });

/** The transactions of one company: another company's is never found. */
export function transactionQuery(db: Tx, companyId: number) {
  return db.selectFrom('transactions').select(COLUMNS).where('company_id', '=', companyId);
}

/**
 * A transaction of the company, locked until the call ends: applying, unapplying and refunding it
 * all read what is left of it first. Transactions are locked before invoices, everywhere.
 */
export async function lockTransaction(db: Tx, companyId: number, transactionId: number) {
  const row = await forUpdate(db, transactionQuery(db, companyId).where('id', '=', transactionId)).executeTakeFirst();
  if (!row) throw invalidTransaction();
  return { ...row, amount: stored(row.amount), refunded: stored(row.refunded) };
}

export type LockedTransaction = Awaited<ReturnType<typeof lockTransaction>>;

/** What a transaction paid on each invoice, most recent first (refunds take those back first). */
export function applications(db: Tx, transactionId: number) {
  return db
    .selectFrom('transaction_applied')
    .select(['invoice_id', 'amount', 'date_added'])
    .where('transaction_id', '=', transactionId)
    .orderBy('date_added', 'desc')
    .orderBy('invoice_id', 'desc')
    .execute();
}

/** The part of a transaction neither applied to an invoice nor refunded: the client's credit from it. */
export async function unapplied(db: Tx, transaction: { id: number; amount: Amount; refunded: Amount }): Promise<Amount> {
  const applied = sum((await applications(db, transaction.id)).map((a) => stored(a.amount)));
  return transaction.amount.minus(transaction.refunded).minus(applied);
}

/**
 * A client's credit in one currency: what its payments left after what they paid on invoices and
 * what was refunded. Summed here with decimal.js rather than in SQL, where SQLite would use floats.
 */
export async function clientCredit(db: Tx, companyId: number, clientId: number, currency: string): Promise<Amount> {
  const base = db
    .selectFrom('transactions')
    .where('transactions.company_id', '=', companyId)
    .where('transactions.client_id', '=', clientId)
    .where('transactions.currency', '=', currency)
    .where('transactions.status', 'in', SETTLED_STATUSES);
  const [payments, applied] = await Promise.all([
    base.select(['transactions.amount', 'transactions.refunded']).execute(),
    base.innerJoin('transaction_applied', 'transaction_applied.transaction_id', 'transactions.id').select('transaction_applied.amount').execute(),
  ]);
  return sum(payments.map((p) => stored(p.amount).minus(stored(p.refunded)))).minus(sum(applied.map((a) => stored(a.amount))));
}

/** A transaction as the API shows it, with where it went. */
export async function readTransaction(db: Tx, companyId: number, transactionId: number) {
  const row = await transactionQuery(db, companyId).where('id', '=', transactionId).executeTakeFirst();
  if (!row) return false;
  const [applied, refunds] = await Promise.all([
    applications(db, transactionId),
    db.selectFrom('transaction_refunds').select(['id', 'amount', 'reference', 'date_added']).where('transaction_id', '=', transactionId).orderBy('id').execute(),
  ]);
  const [amount, refunded] = [stored(row.amount), stored(row.refunded)];
  const appliedTotal = sum(applied.map((a) => stored(a.amount)));
  return {
    ...presentTransaction(row),
    credit: toStored(amount.minus(refunded).minus(appliedTotal)),
    applied: applied.map((a) => ({ ...a, amount: toStored(stored(a.amount)) })),
    refunds: refunds.map((r) => ({ ...r, amount: toStored(stored(r.amount)) })),
  };
}

type Row = Awaited<ReturnType<ReturnType<typeof transactionQuery>['executeTakeFirstOrThrow']>>;

/**
 * A transaction with the reference's field names: `transaction_id` is the gateway's id for it (Tally
 * also keeps it as `reference`, with the gateway's name in `gateway`), its own key is `id`.
 */
export function presentTransaction(row: Row) {
  const { reference, ...rest } = row;
  return { ...rest, transaction_id: reference, reference, amount: toStored(stored(row.amount)), refunded: toStored(stored(row.refunded)) };
}
