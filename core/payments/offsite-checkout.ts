import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { TallyError } from '../kernel/tally-error';
import { payableInvoices } from './payable-invoices';

/** A non-merchant gateway a client can be sent to, to pay off-site. */
export interface OffsiteGateway {
  readonly gateway: string;
  readonly name: string;
}

/** Where to send the payer: the processor's page. */
export interface OffsiteRedirect {
  readonly type: 'redirect';
  readonly url: string;
}

const BUILD_PROCESS = 'buildProcess';
const paymentsModel = (gateway: string) => `${gateway}.payments`;

/**
 * The company's enabled non-merchant gateways taking `currency` whose payments model offers
 * `buildProcess` (the offline gateway, recorded by staff, does not).
 */
export async function offsiteGateways(ctx: CallContext, calls: ModelCalls, currency: string): Promise<OffsiteGateway[]> {
  const installed = (await calls.call(ctx, 'gateway_manager', 'getAllInstalledNonmerchant', { company_id: ctx.companyId, currency: currency.toUpperCase() })) as Array<{ dir: string; name: string }>;
  const offering: OffsiteGateway[] = [];
  for (const gateway of installed) if (await calls.available(ctx, paymentsModel(gateway.dir), BUILD_PROCESS)) offering.push({ gateway: gateway.dir, name: gateway.name });
  return offering;
}

/**
 * Opens an off-site payment of everything due on open invoices of one client: the gateway's
 * `buildProcess` is given the sum, each invoice with its due amount, the client's primary contact
 * to prefill the processor's page, and where to send the payer back. Nothing is recorded here: the
 * payment is recorded once the processor confirms it, by its signed notification
 * (process-notification.ts) or on the payer's return (offsite-return.ts). Answers where to send the payer.
 */
export async function startOffsitePayment(ctx: CallContext, calls: ModelCalls, gateway: string, invoiceIds: readonly number[], returnUrl: string): Promise<OffsiteRedirect> {
  const paying = await payableInvoices(ctx, invoiceIds, 'invoice_ids');
  if (!(await offsiteGateways(ctx, calls, paying.currency)).some((g) => g.gateway === gateway)) {
    throw TallyError.invalid({ gateway: { exists: `The gateway "${gateway.slice(0, 64)}" is not installed and enabled for ${paying.currency}, or does not take payments off-site.` } });
  }
  const contact = await ctx.db.selectFrom('contacts').select(['first_name', 'last_name', 'email']).where('client_id', '=', paying.clientId).where('contact_type', '=', 'primary').executeTakeFirst();
  let answer: unknown;
  try {
    answer = await calls.call(ctx, paymentsModel(gateway), BUILD_PROCESS, {
      vars: { client_id: paying.clientId, amount: paying.amount, currency: paying.currency, return_url: returnUrl, invoices: paying.invoices, ...(contact ? { contact } : {}) },
    });
  } catch (error) {
    if (error instanceof TallyError && error.status === 400) throw error;
    throw TallyError.invalid({ gateway: { failed: `The gateway "${gateway}" could not open the payment; nothing was charged.` } });
  }
  const redirect = answer as { type?: unknown; url?: unknown } | null;
  if (!redirect || redirect.type !== 'redirect' || typeof redirect.url !== 'string' || !/^https:\/\/\S+$/.test(redirect.url)) {
    throw TallyError.invalid({ gateway: { failed: `The gateway "${gateway}" answered without an https:// address to send the payer to; nothing was charged.` } });
  }
  return { type: 'redirect', url: redirect.url };
}
