import { queuePaymentReceipt } from '../delivery/payment-receipt';
import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';

/**
 * Queues the client's receipt for a transaction a gateway has just approved (a notification that
 * recorded it or brought it to approved, a charge, a capture), in the call's transaction: the
 * receipt is sent exactly when the payment is kept, and never for a duplicate. The template is the
 * gateway's kind's ("payment approved" for a merchant gateway, "payment received (non-merchant)"
 * otherwise); the gateway is named by its title, as the gateway managers list it.
 */
export async function sendReceipt(ctx: CallContext, calls: ModelCalls, transactionId: number, kind: 'merchant' | 'nonmerchant'): Promise<void> {
  const transaction = (await calls.call(ctx, 'transactions', 'get', { transaction_id: transactionId })) as
    | {
        client_id: number;
        amount: string;
        currency: string;
        status: string;
        gateway: string | null;
        transaction_id: string | null;
      }
    | false;
  if (!transaction || transaction.status !== 'approved' || !transaction.gateway) return;
  const method = kind === 'merchant' ? 'getInstalledMerchant' : 'getInstalledNonmerchant';
  const installed = (await calls.call(ctx, 'gateway_manager', method, { company_id: ctx.companyId, gateway_name: transaction.gateway })) as { name?: string } | false;
  await queuePaymentReceipt(ctx.db, ctx.companyId, ctx.systemKey, {
    transactionId,
    clientId: transaction.client_id,
    amount: transaction.amount,
    currency: transaction.currency,
    reference: transaction.transaction_id,
    gateway: transaction.gateway,
    gatewayName: (installed && installed.name) || transaction.gateway,
    kind,
  });
}
