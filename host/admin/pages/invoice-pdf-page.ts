import { callAs, PageHandler } from '../admin-request';
import { problemsNotice } from '../../web/form-outcome';
import { sendHtml, staffPage } from '../layout';

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
