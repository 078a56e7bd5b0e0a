import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { sendHtml, staffPage } from '../layout';
import { formatMoney } from '../money-text';

interface InvoiceRow {
  readonly id: number;
  readonly id_code: string;
  readonly client_id: number;
  readonly date_billed: string;
  readonly status: string;
  readonly currency: string;
  readonly total: string;
  readonly due: string;
}

/**
 * Invoices: the company's newest invoices (a page of 25, every status), each with a link to its
 * PDF. Read through invoices/getList as the company in view, as the API reads them.
 */
export const showInvoices: PageHandler = async (request) => {
  const page = Math.max(1, Number.parseInt(String(request.ctx.query.page ?? '1'), 10) || 1);
  const outcome = await attempt(() => callAs(request, 'invoices', 'getList', { status: 'all', page, order_by: { id: 'DESC' } }) as Promise<InvoiceRow[]>);
  const content = outcome.ok ? await table(request, outcome.value, page) : problemsNotice(outcome.messages);
  sendHtml(request.ctx, outcome.ok ? 200 : 400, staffPage(request, 'invoices', 'Invoices', content));
};

/**
 * An invoice's PDF (`?invoice_id=`), through invoices/getPdf as the company in view: served as
 * application/pdf to open in the browser; a missing invoice, or another company's, is a 404.
 */
export const sendInvoicePdf: PageHandler = async (request) => {
  const invoiceId = Number.parseInt(String(request.ctx.query.invoice_id ?? ''), 10);
  const rendered = Number.isSafeInteger(invoiceId) ? ((await callAs(request, 'invoices', 'getPdf', { invoice_id: invoiceId })) as { filename: string; pdf: string } | false) : false;
  if (!rendered) {
    sendHtml(request.ctx, 404, staffPage(request, 'invoices', 'Invoice not found', problemsNotice(['This company has no such invoice.'])));
    return;
  }
  request.ctx.status = 200;
  request.ctx.type = 'application/pdf';
  request.ctx.set('Content-Disposition', `inline; filename="${rendered.filename}"`);
  request.ctx.body = Buffer.from(rendered.pdf, 'base64');
};

async function table(request: AdminRequest, rows: readonly InvoiceRow[], page: number): Promise<SafeHtml> {
  if (!rows.length) return html`<section class="panel"><h2>${request.company.name}</h2><p>No invoices${page > 1 ? ' on this page' : ''}.</p></section>`;
  const money = await Promise.all(rows.map(async (r) => [await formatMoney(request, r.total, r.currency), await formatMoney(request, r.due, r.currency)]));
  return html`<section class="panel" aria-labelledby="invoices-title"><h2 id="invoices-title">${request.company.name}: newest invoices, page ${String(page)}</h2>
<div class="table-wrap"><table>
  <thead><tr><th scope="col">Invoice</th><th scope="col">Client</th><th scope="col">Billed (UTC)</th><th scope="col">Status</th><th scope="col">Total</th><th scope="col">Due</th><th scope="col">PDF</th></tr></thead>
  <tbody>
  ${rows.map(
    (r, i) =>
      html`<tr><td class="mono">${r.id_code}</td><td>${String(r.client_id)}</td><td>${r.date_billed}</td><td>${r.status}</td><td>${money[i][0]}</td><td>${money[i][1]}</td><td><a href="${hrefFor('/admin/billing/invoices/pdf', request.company, { invoice_id: String(r.id) })}">PDF<span class="visually-hidden"> of invoice ${r.id_code}</span></a></td></tr>`,
  )}
  </tbody>
</table></div>
<p><a href="${hrefFor('/admin/billing/invoices', request.company, { page: String(page + 1) })}">Older invoices</a></p>
</section>`;
}
