import { emit } from '../events/emit';
import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { parseDecimal, stored, toStored } from '../kernel/money';
import { TallyError } from '../kernel/tally-error';
import { inShortTransaction } from '../kernel/short-transaction';
import { claimPayment, settleClaim } from './claim-payment';
import { NonsenseAnswer, ReportedPayment, readVerdict, Verdict } from './gateway-verdict';
import { InboxVerdict, recordVerdict } from './inbox';
import { matchInvoices } from './invoice-match';
import { recordedByGateway } from './recorded-by-gateway';
import { sendReceipt } from './send-receipt';
import { GatewayNotificationsTable } from './payment-tables';

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
  return inShortTransaction(ctx, async (tx) => {
    if (judgement.kind === 'payment') return recordPayment(tx, calls, row, judgement.payment);
    return finish(tx, row, judgement.kind, judgement.reason);
  });
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

async function recordPayment(ctx: CallContext, calls: ModelCalls, row: InboxRow, payment: ReportedPayment): Promise<Outcome> {
  const claim = await claimPayment(ctx.db, ctx.companyId, row.gateway, payment.transaction_id, payment.status);
  const adopted = claim.fresh ? await recordedByGateway(ctx.db, ctx.companyId, row.gateway, payment.transaction_id) : null;
  if (claim.fresh && adopted === null) {
    const match = payment.status === 'approved' ? await matchInvoices(ctx.db, ctx.companyId, payment) : { ok: true as const, invoices: [] };
    const transactionId = (await calls.call(ctx, 'transactions', 'add', {
      vars: {
        client_id: payment.client_id,
        amount: payment.amount,
        currency: payment.currency,
        status: payment.status === 'refunded' ? 'approved' : payment.status,
        gateway: row.gateway,
        transaction_id: payment.transaction_id,
        ...(match.ok && match.invoices.length ? { invoices: match.invoices } : {}),
      },
    })) as number;
    await settleClaim(ctx.db, ctx.companyId, row.gateway, payment.transaction_id, transactionId, payment.status);
    if (payment.status === 'approved') await sendReceipt(ctx, calls, transactionId, receiptKind(row.kind));
    if (!match.ok) {
      await emit(ctx, 'Payments.unapplied', {
        notification_id: row.id,
        gateway: row.gateway,
        reason: match.reason,
        transaction: await calls.call(ctx, 'transactions', 'get', { transaction_id: transactionId }),
      });
      return finish(ctx, row, 'unapplied', match.reason, payment.transaction_id, transactionId);
    }
    return finish(ctx, row, 'recorded', null, payment.transaction_id, transactionId);
  }
  // Claimed by an earlier notification that failed after claiming cannot happen: a failure rolls the claim back.
  const transactionId = claim.fresh ? adopted! : claim.transactionId!;
  const current = (await calls.call(ctx, 'transactions', 'get', { transaction_id: transactionId })) as { status: string; amount: string; refunded: string };
  if (claim.fresh) await settleClaim(ctx.db, ctx.companyId, row.gateway, payment.transaction_id, transactionId, current.status);
  if (payment.status === 'refunded') return refunded(ctx, calls, row, payment, transactionId, current);
  if (payment.status === current.status) return finish(ctx, row, 'duplicate', `Transaction ${transactionId} already has status ${current.status}.`, payment.transaction_id, transactionId);
  await calls.call(ctx, 'transactions', 'edit', { transaction_id: transactionId, vars: { status: payment.status } });
  let reason: string | null = `Status ${current.status} → ${payment.status}.`;
  if (payment.status === 'approved') {
    await sendReceipt(ctx, calls, transactionId, receiptKind(row.kind));
    const match = await matchInvoices(ctx.db, ctx.companyId, payment);
    if (match.ok && match.invoices.length) await calls.call(ctx, 'transactions', 'apply', { transaction_id: transactionId, vars: { amounts: match.invoices } });
    if (!match.ok) reason = `${reason} Left unapplied: ${match.reason}`;
  }
  await settleClaim(ctx.db, ctx.companyId, row.gateway, payment.transaction_id, transactionId, payment.status);
  return finish(ctx, row, 'updated', reason, payment.transaction_id, transactionId);
}

/**
 * A refund the gateway reports: `amount` is what it has refunded of the payment in all, so the
 * same notification twice, or one for a refund made through Tally, refunds nothing more.
 */
async function refunded(ctx: CallContext, calls: ModelCalls, row: InboxRow, payment: ReportedPayment, transactionId: number, current: { amount: string; refunded: string }): Promise<Outcome> {
  const more = parseDecimal(payment.amount)!.minus(stored(current.refunded));
  if (more.lte(0)) return finish(ctx, row, 'duplicate', `Transaction ${transactionId} has already been refunded ${current.refunded}.`, payment.transaction_id, transactionId);
  const left = stored(current.amount).minus(stored(current.refunded));
  await calls.call(ctx, 'transactions', 'refund', { transaction_id: transactionId, vars: { amount: toStored(more.gt(left) ? left : more) } });
  await settleClaim(ctx.db, ctx.companyId, row.gateway, payment.transaction_id, transactionId, 'refunded');
  return finish(ctx, row, 'updated', `Refunded ${toStored(more.gt(left) ? left : more)}.`, payment.transaction_id, transactionId);
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

function receiptKind(kind: string): 'merchant' | 'nonmerchant' {
  return kind === 'merchant' ? 'merchant' : 'nonmerchant';
}

function gatewayFailed(gateway: string, what: string): TallyError {
  return TallyError.invalid({ gateway: { failed: `The gateway "${gateway}" ${what}; nothing was recorded.` } });
}
