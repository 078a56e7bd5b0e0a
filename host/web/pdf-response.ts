import Koa from 'koa';

/** A rendered invoice PDF as invoices/getPdf answers it. */
export interface RenderedPdf {
  readonly filename: string;
  readonly pdf: string;
}

/** Sends an invoices/getPdf answer as application/pdf, to open in the browser under its file name. */
export function sendPdf(ctx: Koa.Context, rendered: RenderedPdf): void {
  ctx.status = 200;
  ctx.type = 'application/pdf';
  ctx.set('Content-Disposition', `inline; filename="${rendered.filename}"`);
  ctx.body = Buffer.from(rendered.pdf, 'base64');
}
