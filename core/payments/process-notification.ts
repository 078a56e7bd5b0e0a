import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { TallyError } from '../kernel/tally-error';
import { inShortTransaction } from '../kernel/short-transaction';
import { NonsenseAnswer, readVerdict, Verdict } from './gateway-verdict';
import { recordReportedPayment } from './record-reported-payment';
import { InboxVerdict, recordVerdict } from './inbox';
import { GatewayNotificationsTable } from './payment-tables';
import { gatewayFailed } from './gateway-failed';
import { isReferenceTaken } from './reference-taken';

type InboxRow = Omit<GatewayNotificationsTable, 'id' | 'attempts'> & { id: number };

/** The model of a gateway that answers `validate`: the non-merchant contract's, the merchant contract's. */
export function contractModel(gateway: string, kind: string): string {
  return `${gateway}.${kind === 'merchant' ? 'tokens' : 'payments'}`;
}

export interface Outcome {
  readonly verdict: InboxVerdict;
  readonly reason: string | null;
  readonly transaction_id: number | null;
}

/** What the gateway concluded about a notification, or why it could not be asked. */
type Judgement = Verdict | { kind: 'failed'; reason: string };

/**
 * Processes one kept notification in two steps. First the gateway's `validate` gets it whole,
 * with no transaction held: a gateway may ask its processor (PayPal's verify-webhook-signature),
 * and on SQLite a transaction held meanwhile would stop every other write. Then what it concluded
 * is recorded in one short transaction: a payment once per gateway transaction id (claimPayment),
 * applied to the invoices it names when they match, a later status of the same id updating the
 * transaction, and what became of it written to the inbox. A process that stops between the two
 * leaves the notification as received, to be processed again. The verdict is the gateway's own
 * answer, handed from one step to the next here and never taken from a caller. A gateway that
 * throws or answers nonsense is a TallyError naming it, with nothing recorded; the caller records
 * the failure in the inbox on its own.
 *
 * `ctx` is a context over the database itself (gateway_notifications/reprocess owns its
 * transactions), so the gateway's call makes its own short session.
 */
export async function processNotification(ctx: CallContext, calls: ModelCalls, row: InboxRow): Promise<Outcome> {
  const judgement = await judge(ctx, calls, row);
  const record = () =>
    inShortTransaction(ctx, async (tx) => {
      if (judgement.kind !== 'payment') return finish(tx, row, judgement.kind, judgement.reason);
      const done = await recordReportedPayment(tx, calls, { gateway: row.gateway, kind: row.kind === 'merchant' ? 'merchant' : 'nonmerchant', notificationId: row.id }, judgement.payment);
      return finish(tx, row, done.verdict, done.reason, done.gatewayTransactionId, done.transactionId);
    });
  try {
    return await record();
  } catch (error) {
    // A merchant gateway's charge recorded this payment while ours was being recorded (its insert
    // uncommitted when we looked, committed when we inserted): recorded again, it is found and adopted.
    if (!isReferenceTaken(error)) throw error;
    return record();
  }
}

/** The gateway's `validate` of the notification, read and checked; in no transaction of ours. */
async function judge(ctx: CallContext, calls: ModelCalls, row: InboxRow): Promise<Judgement> {
  const model = contractModel(row.gateway, row.kind);
  if (!(await calls.available(ctx, model, 'validate'))) return { kind: 'failed', reason: `The gateway "${row.gateway}" is not installed and enabled, or takes no notifications.` };
  let answer: unknown;
  try {
    answer = await calls.call(ctx, model, 'validate', { notification: notificationOf(row) });
  } catch (error) {
    throw gatewayFailed(row.gateway, error instanceof TallyError && error.status === 400 ? 'refused to validate the notification' : 'failed while validating the notification');
  }
  try {
    return readVerdict(answer);
  } catch (error) {
    if (error instanceof NonsenseAnswer) throw gatewayFailed(row.gateway, error.message);
    throw error;
  }
}

/** What `validate` is given: the notification whole, and when it was received (a signature's time is measured against it). */
function notificationOf(row: InboxRow) {
  const headers = JSON.parse(row.headers) as Record<string, string>;
  const form = /application\/x-www-form-urlencoded/i.test(headers['content-type'] ?? '') ? Object.fromEntries(new URLSearchParams(row.body)) : {};
  return { method: row.method, headers, body: row.body, query: Object.fromEntries(new URLSearchParams(row.query)), form, received_at: row.received_at };
}

async function finish(
  ctx: CallContext,
  row: InboxRow,
  verdict: InboxVerdict,
  reason: string | null,
  gatewayTransactionId: string | null = null,
  transactionId: number | null = null,
): Promise<Outcome> {
  await recordVerdict(ctx.db, row.id, verdict, reason, gatewayTransactionId, transactionId);
  return { verdict, reason, transaction_id: transactionId };
}
