import { callAs, hrefFor, PageHandler } from '../admin-request';
import { dataTable } from '../components/data-table';
import { filterLinks, pager, wholeNumberOr } from '../components/list-controls';
import { html } from '../../web/html';
import { sendHtml, staffPage } from '../layout';
import { mayChange, viewOnlyNote } from '../area-gate';
import { clientName, clientNames, findClient } from './client-records';
import { INVOICE_COLUMNS, invoiceRows, InvoiceSummary } from './invoice-records';

const PATH = '/admin/invoices';
const PAGE_SIZE = 25;
/** The list's filters, as invoices/getList's statuses: overdue is past_due, paid is closed, to print the print queue. */
const FILTERS = [
  { value: 'open', label: 'Open' },
  { value: 'past_due', label: 'Overdue' },
  { value: 'closed', label: 'Paid' },
  { value: 'draft', label: 'Draft' },
  { value: 'void', label: 'Void' },
  { value: 'to_print', label: 'To print' },
  { value: 'all', label: 'All' },
];

/** Invoices: one page of the company's invoices (or one client's) by filter, clients named. */
export const showInvoices: PageHandler = async (request) => {
  const { ctx, company } = request;
  const status = FILTERS.some((f) => f.value === ctx.query.status) ? String(ctx.query.status) : 'open';
  const page = wholeNumberOr(ctx.query.page, 1) || 1;
  const client = ctx.query.client_id === undefined ? null : await findClient(request, ctx.query.client_id);
  const byClient = client ? { client_id: client.id } : {};
  const [invoices, total] = (await Promise.all([
    callAs(request, 'invoices', 'getList', { ...byClient, status, page, order_by: status === 'open' || status === 'past_due' ? { date_due: 'ASC' } : { date_billed: 'DESC' } }),
    callAs(request, 'invoices', 'getListCount', { ...byClient, status }),
  ])) as [InvoiceSummary[], number];
  const names = await clientNames(
    request,
    invoices.map((i) => i.client_id),
  );
  const label = FILTERS.find((f) => f.value === status)!.label.toLowerCase();
  const extra: Record<string, string> = client ? { client_id: String(client.id) } : {};
  // Creating an invoice is the billing area's: a member without it gets the list and the note instead of the links.
  const manage = mayChange(request, 'billing');
  const content = html`${manage ? html`<p><a class="button" href="${hrefFor(`${PATH}/add`, company, extra)}">Create an invoice</a></p>` : viewOnlyNote(request, 'billing')}
${client ? html`<p>Invoices of <a href="${hrefFor('/admin/clients/view', company, { client_id: String(client.id) })}">${clientName(client)}</a>. <a href="${hrefFor(PATH, company, { status })}">Every client's</a>.</p>` : ''}
${filterLinks('Invoice filter', PATH, company, FILTERS, status, extra)}
${dataTable(`${FILTERS.find((f) => f.value === status)!.label} invoices`, INVOICE_COLUMNS, invoiceRows(request, invoices, names), html`No ${status === 'all' ? '' : `${label} `}invoices. ${manage ? html`<a href="${hrefFor(`${PATH}/add`, company, extra)}">Create an invoice</a>, or choose` : 'Choose'} another filter.`)}
${pager(PATH, company, page, total, PAGE_SIZE, { ...extra, status })}`;
  sendHtml(ctx, 200, staffPage(request, 'invoices', 'Invoices', content));
};
