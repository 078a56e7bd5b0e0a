import { AdminRequest, callAs } from '../admin-request';
import { html, SafeHtml } from '../../web/html';
import { formBasics } from '../layout';
import { InvoiceSummary } from './invoice-records';

interface StoredAccount {
  readonly id: number;
  readonly type_name: string;
  readonly last4: string;
  readonly gateway: string;
  readonly status: string;
}

/**
 * Charge a stored account: the client's active cards and bank accounts, one of which pays what is
 * still due through the gateway that stored it (gateway_payments/payInvoice). Nothing when the
 * client has none: the form would offer a charge that cannot be made.
 */
export async function chargePanel(request: AdminRequest, invoice: InvoiceSummary): Promise<SafeHtml> {
  const [cards, banks] = (await Promise.all([
    callAs(request, 'accounts', 'getAllCcByClient', { client_id: invoice.client_id }),
    callAs(request, 'accounts', 'getAllAchByClient', { client_id: invoice.client_id }),
  ])) as [StoredAccount[], StoredAccount[]];
  const accounts = [...cards, ...banks].filter((a) => a.status === 'active');
  if (!accounts.length) return html``;
  return html`<h3 id="charge-title">Charge a stored account</h3>
<form method="post" action="/admin/invoices/charge" class="grid-form" aria-labelledby="charge-title">
  ${formBasics(request)}<input type="hidden" name="invoice_id" value="${invoice.id}">
  <div class="field"><label for="charge-account">Account</label><select id="charge-account" name="account_id">${accounts.map((a) => html`<option value="${a.id}">${a.type_name} ending ${a.last4} (${a.gateway})</option>`)}</select></div>
  <div><button type="submit" data-confirm="Charge what is still due on invoice ${invoice.id_code} to this account now?">Charge what is due</button></div>
</form>`;
}
