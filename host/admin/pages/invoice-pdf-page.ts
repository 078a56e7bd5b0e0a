import { callAs, PageHandler } from '../admin-request';
import { problemsNotice } from '../../web/form-outcome';
import { sendHtml, staffPage } from '../layout';
import { RenderedPdf, sendPdf } from '../../web/pdf-response';

/**
 * An invoice's PDF (`?invoice_id=`), through invoices/getPdf as the company in view: served as
 * application/pdf to open in the browser; a missing invoice, or another company's, is a 404.
 */
export const sendInvoicePdf: PageHandler = async (request) => {
  const invoiceId = Number.parseInt(String(request.ctx.query.invoice_id ?? ''), 10);
  const rendered = Number.isSafeInteger(invoiceId) ? ((await callAs(request, 'invoices', 'getPdf', { invoice_id: invoiceId })) as RenderedPdf | false) : false;
  if (!rendered) {
    sendHtml(request.ctx, 404, staffPage(request, 'invoices', 'Invoice not found', problemsNotice(['This company has no such invoice.'])));
    return;
  }
  sendPdf(request.ctx, rendered);
};
