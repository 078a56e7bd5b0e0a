import { hrefFor, PageHandler, callAs } from '../admin-request';
import { dataTable } from '../components/data-table';
import { filterLinks, pager, wholeNumberOr } from '../components/list-controls';
import { html } from '../../web/html';
import { sendHtml, staffPage } from '../layout';
import { mayChange, viewOnlyNote } from '../area-gate';
import { CLIENT_STATUS_LABELS, clientName, ClientRecord } from './client-records';

const PATH = '/admin/clients';
const PAGE_SIZE = 25;
const STATUSES = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
  { value: 'fraud', label: 'Fraud' },
];

/**
 * Clients: one page of the company's clients, by status (all, active, inactive, fraud), or those a
 * search finds by display number, name, company or email (clients/search), 25 a page.
 */
export const showClients: PageHandler = async (request) => {
  const { ctx, company } = request;
  const query = typeof ctx.query.q === 'string' ? ctx.query.q.trim().slice(0, 200) : '';
  const status = STATUSES.some((s) => s.value === ctx.query.status) ? String(ctx.query.status) : 'all';
  const page = wholeNumberOr(ctx.query.page, 1) || 1;
  // An absent parameter is the model's default (every status); a null one is not a text.
  const byStatus = status === 'all' ? {} : { status };
  const [clients, total] = (
    query
      ? await Promise.all([callAs(request, 'clients', 'search', { query, page }), callAs(request, 'clients', 'getSearchCount', { query })])
      : await Promise.all([callAs(request, 'clients', 'getList', { ...byStatus, page, order_by: { id: 'DESC' } }), callAs(request, 'clients', 'getListCount', byStatus)])
  ) as [ClientRecord[], number];
  const rows = clients.map((c) => [
    html`<a href="${hrefFor('/admin/clients/view', company, { client_id: String(c.id) })}">${c.id_code}</a>`,
    html`<a href="${hrefFor('/admin/clients/view', company, { client_id: String(c.id) })}">${clientName(c)}</a>`,
    c.company ?? '',
    c.email ?? '',
    CLIENT_STATUS_LABELS[c.status] ?? c.status,
  ]);
  // Adding a client is the clients area's: a member without it gets the list and the note instead of the links.
  const manage = mayChange(request, 'clients');
  const empty = query
    ? html`No client matches “${query}”. Search by number, name, company or email${manage ? html`, or <a href="${hrefFor(`${PATH}/add`, company)}">add a client</a>` : ''}.`
    : html`No ${status === 'all' ? '' : `${CLIENT_STATUS_LABELS[status].toLowerCase()} `}clients yet.${manage ? html` <a href="${hrefFor(`${PATH}/add`, company)}">Add a client</a> to start billing them.` : ''}`;
  const content = html`${manage ? html`<p><a class="button" href="${hrefFor(`${PATH}/add`, company)}">Add a client</a></p>` : viewOnlyNote(request, 'clients')}
<form method="get" action="${PATH}" class="inline-form" role="search">
  <input type="hidden" name="company" value="${company.id}">
  <div class="field"><label for="client-search">Search clients</label><input type="search" id="client-search" name="q" value="${query}" maxlength="200" placeholder="Number, name, company or email"></div>
  <div><button type="submit">Search</button></div>
</form>
${query ? html`<p>Clients matching “${query}”, whatever their status. <a href="${hrefFor(PATH, company)}">Show every client</a>.</p>` : filterLinks('Client status', PATH, company, STATUSES, status)}
${dataTable(`Clients of ${company.name}`, [{ label: 'Number' }, { label: 'Name' }, { label: 'Company' }, { label: 'Email' }, { label: 'Status' }], rows, empty)}
${pager(PATH, company, page, total, PAGE_SIZE, query ? { q: query } : { status })}`;
  sendHtml(ctx, 200, staffPage(request, 'clients', 'Clients', content));
};
