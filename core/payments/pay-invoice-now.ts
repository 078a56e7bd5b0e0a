import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { chargeStoredAccount } from './charge-stored-account';
import { gatewayFailed } from './gateway-failed';

export interface ChargeOutcome {
  readonly status: 'approved' | 'declined';
  readonly message: string | null;
  readonly transaction_id: number | null;
}

/**
 * gateway_payments/payInvoice: what is due on one open invoice charged now to one of its client's
 * stored accounts (chargeStoredAccount, the use case accounts/chargeInvoice shares), answered as
 * approved with the transaction or declined with the gateway's reason; a gateway that answers
 * neither is a 400 naming it.
 */
export async function payInvoiceNow(ctx: CallContext, calls: ModelCalls, invoiceId: number, accountId: number): Promise<ChargeOutcome> {
  const charge = await chargeStoredAccount(ctx, calls, accountId, [invoiceId], 'invoice_id');
  if (charge.status === 'error') throw gatewayFailed(await gatewayOf(ctx, accountId), 'answered the charge with neither an approved transaction nor a decline', 'nothing was changed');
  return { status: charge.status, message: charge.message, transaction_id: charge.transaction_id };
}

async function gatewayOf(ctx: CallContext, accountId: number): Promise<string> {
  const row = await ctx.db.selectFrom('accounts').select('gateway').where('company_id', '=', ctx.companyId).where('id', '=', accountId).executeTakeFirst();
  return row?.gateway ?? 'unknown';
}
