import { AdminRequest, callAs } from '../admin-request';
import { dataTable } from '../components/data-table';
import { html, SafeHtml } from '../../web/html';
import { formBasics } from '../layout';

interface Delivery {
  readonly id: number;
  readonly method: string;
  readonly date_sent: string | null;
}

const METHOD_LABELS: Record<string, string> = { email: 'Email', paper: 'Paper (print queue)', interfax: 'Interfax', postalmethods: 'PostalMethods' };
export const INVOICE_DELIVERY_PATH = '/admin/invoices/delivery';

/**
 * An invoice's Delivery panel: each delivery record (invoices/getDelivery) and whether it is done;
 * a paper one not yet printed can be marked printed (invoices/delivered); an invoice that is not
 * void can be emailed again or put in the print queue (invoices/addDelivery).
 */
export async function deliveryPanel(request: AdminRequest, invoice: { id: number; id_code: string; client_id: number; status: string }): Promise<SafeHtml> {
  const deliveries = (await callAs(request, 'invoices', 'getDelivery', { invoice_id: invoice.id })) as Delivery[];
  const button = (label: string, fields: Record<string, string | number>, secondary = true) =>
    html`<form method="post" action="${INVOICE_DELIVERY_PATH}" class="inline-form">${formBasics(request)}<input type="hidden" name="invoice_id" value="${invoice.id}">${Object.entries(fields).map(
      ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
    )}<button type="submit"${secondary ? html` class="secondary"` : ''}>${label}</button></form>`;
  return html`<section class="panel" aria-labelledby="delivery-title"><h2 id="delivery-title">Delivery</h2>
${dataTable(
  `Deliveries of invoice ${invoice.id_code}`,
  [{ label: 'Method' }, { label: 'State' }, { label: 'Action' }],
  deliveries.map((d) => [
    METHOD_LABELS[d.method] ?? d.method,
    d.date_sent ? `Delivered ${d.date_sent} UTC` : d.method === 'email' ? 'Waiting for the mail server' : 'Waiting',
    d.date_sent || d.method === 'email' ? '' : button(d.method === 'paper' ? 'Mark printed' : 'Mark delivered', { do: 'delivered', invoice_delivery_id: d.id }),
  ]),
  'This invoice is not delivered by any method.',
)}
${invoice.status === 'void' ? '' : html`<p class="actions">${button('Email it to the client', { do: 'add', method: 'email' })} ${button('Add to the print queue', { do: 'add', method: 'paper' })}</p>`}
</section>`;
}
