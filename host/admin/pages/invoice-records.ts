import { AdminRequest, hrefFor } from '../admin-request';
import { Column } from '../components/data-table';
import { html, HtmlValue } from '../../web/html';
import { moneyText } from '../money-text';

/** An invoice as invoices/getList and invoices/get answer it (the fields the screens show). */
export interface InvoiceSummary {
  readonly id: number;
  readonly id_code: string;
  readonly client_id: number;
  readonly date_billed: string;
  readonly date_due: string;
  readonly date_closed: string | null;
  readonly status: string;
  readonly currency: string;
  readonly subtotal: string;
  readonly tax: string;
  readonly total: string;
  readonly paid: string;
  readonly due: string;
}

export const INVOICE_STATUS_LABELS: Record<string, string> = { active: 'Open', draft: 'Draft', proforma: 'Pro forma', void: 'Void' };

/** What an invoice's state reads as: void, draft, paid, overdue or open. */
export function invoiceState(invoice: InvoiceSummary, now = new Date()): string {
  if (invoice.status !== 'active') return INVOICE_STATUS_LABELS[invoice.status] ?? invoice.status;
  if (invoice.date_closed) return 'Paid';
  return invoice.date_due.slice(0, 10) < now.toISOString().slice(0, 10) ? 'Overdue' : 'Open';
}

export const INVOICE_COLUMNS: readonly Column[] = [
  { label: 'Invoice' },
  { label: 'Client' },
  { label: 'Billed' },
  { label: 'Due' },
  { label: 'State' },
  { label: 'Total', numeric: true },
  { label: 'Still due', numeric: true },
];

/** Table rows of invoices; `names` gives each client's name (null: the client column is left out). */
export function invoiceRows(request: AdminRequest, invoices: readonly InvoiceSummary[], names: ReadonlyMap<number, string> | null): HtmlValue[][] {
  return invoices.map((invoice) => {
    const cells: HtmlValue[] = [html`<a href="${hrefFor('/admin/invoices/view', request.company, { invoice_id: String(invoice.id) })}">${invoice.id_code}</a>`];
    if (names) cells.push(html`<a href="${hrefFor('/admin/clients/view', request.company, { client_id: String(invoice.client_id) })}">${names.get(invoice.client_id) ?? ''}</a>`);
    cells.push(invoice.date_billed.slice(0, 10), invoice.date_due.slice(0, 10), invoiceState(invoice), moneyText(invoice.total, invoice.currency), moneyText(invoice.due, invoice.currency));
    return cells;
  });
}
