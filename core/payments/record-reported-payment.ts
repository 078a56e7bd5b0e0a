import { emit } from '../events/emit';
import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { parseDecimal, stored, toStored } from '../kernel/money';
import { claimPayment, settleClaim } from './claim-payment';
import { ReportedPayment } from './gateway-verdict';
import { matchInvoices } from './invoice-match';
import { recordedByGateway } from './recorded-by-gateway';
import { sendReceipt } from './send-receipt';

/** Where a payment was reported from: a kept notification, or the payer's return (no notification). */
export interface PaymentSource {
  readonly gateway: string;
  readonly kind: 'merchant' | 'nonmerchant';
  readonly notificationId: number | null;
}

/** What became of a reported payment: the inbox's verdict for it, and the transaction. */
export interface Recorded {
  readonly verdict: 'recorded' | 'unapplied' | 'updated' | 'duplicate';
  readonly reason: string | null;
  readonly gatewayTransactionId: string;
  readonly transactionId: number;
}

const recorded = (verdict: Recorded['verdict'], reason: string | null, gatewayTransactionId: string, transactionId: number): Recorded => ({ verdict, reason, gatewayTransactionId, transactionId });

/**
 * Records a payment a gateway reported (by its notification's `validate`, or by `success` on the
 * payer's return), in the caller's transaction, once per company, gateway and gateway transaction
 * id whoever reports it first (claimPayment): a new transaction applied to the invoices it names
 * when they match (else left as the client's credit, and Payments.unapplied tells staff), or a
 * later status of a known payment (pending → approved, a refund) updating its transaction.
 */
export async function recordReportedPayment(ctx: CallContext, calls: ModelCalls, source: PaymentSource, payment: ReportedPayment): Promise<Recorded> {
  const claim = await claimPayment(ctx.db, ctx.companyId, source.gateway, payment.transaction_id, payment.status);
  const adopted = claim.fresh ? await recordedByGateway(ctx.db, ctx.companyId, source.gateway, payment.transaction_id) : null;
  if (claim.fresh && adopted === null) {
    const match = payment.status === 'approved' ? await matchInvoices(ctx.db, ctx.companyId, payment) : { ok: true as const, invoices: [] };
    const transactionId = (await calls.call(ctx, 'transactions', 'add', {
      vars: {
        client_id: payment.client_id,
        amount: payment.amount,
        currency: payment.currency,
        status: payment.status === 'refunded' ? 'approved' : payment.status,
        gateway: source.gateway,
        transaction_id: payment.transaction_id,
        ...(match.ok && match.invoices.length ? { invoices: match.invoices } : {}),
      },
    })) as number;
    await settleClaim(ctx.db, ctx.companyId, source.gateway, payment.transaction_id, transactionId, payment.status);
    if (payment.status === 'approved') await sendReceipt(ctx, calls, transactionId, source.kind);
    if (!match.ok) {
      await emit(ctx, 'Payments.unapplied', {
        notification_id: source.notificationId,
        gateway: source.gateway,
        reason: match.reason,
        transaction: await calls.call(ctx, 'transactions', 'get', { transaction_id: transactionId }),
      });
      return recorded('unapplied', match.reason, payment.transaction_id, transactionId);
    }
    return recorded('recorded', null, payment.transaction_id, transactionId);
  }
  // Claimed by an earlier notification that failed after claiming cannot happen: a failure rolls the claim back.
  const transactionId = claim.fresh ? adopted! : claim.transactionId!;
  const current = (await calls.call(ctx, 'transactions', 'get', { transaction_id: transactionId })) as { status: string; amount: string; refunded: string };
  if (claim.fresh) await settleClaim(ctx.db, ctx.companyId, source.gateway, payment.transaction_id, transactionId, current.status);
  if (payment.status === 'refunded') return refunded(ctx, calls, source, payment, transactionId, current);
  if (payment.status === current.status) return recorded('duplicate', `Transaction ${transactionId} already has status ${current.status}.`, payment.transaction_id, transactionId);
  await calls.call(ctx, 'transactions', 'edit', { transaction_id: transactionId, vars: { status: payment.status } });
  let reason: string | null = `Status ${current.status} → ${payment.status}.`;
  if (payment.status === 'approved') {
    await sendReceipt(ctx, calls, transactionId, source.kind);
    const match = await matchInvoices(ctx.db, ctx.companyId, payment);
    if (match.ok && match.invoices.length) await calls.call(ctx, 'transactions', 'apply', { transaction_id: transactionId, vars: { amounts: match.invoices } });
    if (!match.ok) reason = `${reason} Left unapplied: ${match.reason}`;
  }
  await settleClaim(ctx.db, ctx.companyId, source.gateway, payment.transaction_id, transactionId, payment.status);
  return recorded('updated', reason, payment.transaction_id, transactionId);
}

/**
 * A refund the gateway reports: `amount` is what it has refunded of the payment in all, so the
 * same notification twice, or one for a refund made through Tally, refunds nothing more.
 */
async function refunded(ctx: CallContext, calls: ModelCalls, source: PaymentSource, payment: ReportedPayment, transactionId: number, current: { amount: string; refunded: string }): Promise<Recorded> {
  const more = parseDecimal(payment.amount)!.minus(stored(current.refunded));
  if (more.lte(0)) return recorded('duplicate', `Transaction ${transactionId} has already been refunded ${current.refunded}.`, payment.transaction_id, transactionId);
  const left = stored(current.amount).minus(stored(current.refunded));
  await calls.call(ctx, 'transactions', 'refund', { transaction_id: transactionId, vars: { amount: toStored(more.gt(left) ? left : more) } });
  await settleClaim(ctx.db, ctx.companyId, source.gateway, payment.transaction_id, transactionId, 'refunded');
  return recorded('updated', `Refunded ${toStored(more.gt(left) ? left : more)}.`, payment.transaction_id, transactionId);
}
