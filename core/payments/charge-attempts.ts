import { randomUUID } from 'node:crypto';
import { Generated, Kysely, Transaction } from 'kysely';
import { Database, Tx } from '../db/schema';
import { CallContext } from '../kernel/call-context';
import { inShortTransaction } from '../kernel/short-transaction';
import { formatUtc } from '../kernel/timestamps';

type ChargeAttemptsTable = {
  id: Generated<number>;
  company_id: number;
  client_id: number;
  account_id: number;
  idempotency_key: string;
  amount: string;
  currency: string;
  status: string;
  transaction_id: number | null;
  date_added: string;
  date_updated: string;
};
type AttemptsDb = Transaction<Database & { charge_attempts: ChargeAttemptsTable }> | Kysely<Database & { charge_attempts: ChargeAttemptsTable }>;
const attemptsDb = (db: Tx) => db as unknown as AttemptsDb;

/** A charge written down before the gateway asks its processor: the key the processor is sent. */
export interface ChargeAttempt {
  readonly id: number;
  readonly idempotencyKey: string;
}

/**
 * Writes the attempt down, committed in a short transaction of its own, before the processor is
 * asked: its idempotency key is random (two installations sharing a processor account never send
 * the same one) and stays the attempt's, so the gateway's call run again for the same attempt (after
 * a conflict, or retried after a crash) is answered the charge already made rather than a second one.
 */
export async function startChargeAttempt(ctx: CallContext, charge: { clientId: number; accountId: number; amount: string; currency: string }): Promise<ChargeAttempt> {
  const idempotencyKey = `tally-charge-${randomUUID()}`;
  const now = formatUtc(new Date());
  const row = await inShortTransaction(ctx, (tx) =>
    attemptsDb(tx.db)
      .insertInto('charge_attempts')
      .values({
        company_id: ctx.companyId,
        client_id: charge.clientId,
        account_id: charge.accountId,
        idempotency_key: idempotencyKey,
        amount: charge.amount,
        currency: charge.currency,
        status: 'pending',
        transaction_id: null,
        date_added: now,
        date_updated: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  return { id: Number(row.id), idempotencyKey };
}

/** What the processor answered the attempt: its status, and the payment it made. */
export async function settleChargeAttempt(ctx: CallContext, attempt: ChargeAttempt, status: string, transactionId: number | null): Promise<void> {
  await attemptsDb(ctx.db)
    .updateTable('charge_attempts')
    .set({ status, transaction_id: transactionId, date_updated: formatUtc(new Date()) })
    .where('id', '=', attempt.id)
    .where('company_id', '=', ctx.companyId)
    .execute();
}
