import { callAs, hrefFor, PageHandler } from '../admin-request';
import { dataTable } from '../components/data-table';
import { pager, wholeNumberOr } from '../components/list-controls';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html } from '../../web/html';
import { sendHtml, staffPage } from '../layout';
import { moneyText } from '../money-text';
import { clientNames, findClient } from './client-records';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES, TransactionRecord } from './transaction-records';

const PATH = '/admin/payments';
const PAGE_SIZE = 25;
const one = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** Payments: the company's transactions, newest first, filtered by status, type, client and days (UTC), through transactions/getList. */
export const showPayments: PageHandler = async (request) => {
  const { ctx, company } = request;
  const status = (TRANSACTION_STATUSES as readonly string[]).includes(one(ctx.query.status)) ? one(ctx.query.status) : 'all';
  const type = Object.hasOwn(TRANSACTION_TYPES, one(ctx.query.type)) ? one(ctx.query.type) : '';
  const client = one(ctx.query.client_id) ? await findClient(request, one(ctx.query.client_id)) : null;
  const dateFrom = one(ctx.query.date_from);
  const dateTo = one(ctx.query.date_to);
  const page = wholeNumberOr(ctx.query.page, 1) || 1;
  const filters = Object.fromEntries(Object.entries({ type, date_from: dateFrom, date_to: dateTo }).filter(([, v]) => v !== ''));
  const params = { client_id: client?.id ?? undefined, status, filters };
  // A day typed wrong is the model's 400 (filters[date_from]), shown above the filters; the list is then empty.
  const unknownClient = one(ctx.query.client_id) !== '' && !client;
  const listed = await attempt(async () =>
    unknownClient
      ? ([[], 0] as [TransactionRecord[], number])
      : ((await Promise.all([callAs(request, 'transactions', 'getList', { ...params, page, order_by: { date_added: 'DESC' } }), callAs(request, 'transactions', 'getListCount', params)])) as [
          TransactionRecord[],
          number,
        ]),
  );
  const [transactions, total] = listed.ok ? listed.value : [[], 0];
  const names = await clientNames(
    request,
    transactions.map((t) => t.client_id),
  );
  const kept: Record<string, string> = {
    status,
    ...(type ? { type } : {}),
    ...(client ? { client_id: String(client.id) } : {}),
    ...(dateFrom ? { date_from: dateFrom } : {}),
    ...(dateTo ? { date_to: dateTo } : {}),
  };
  const content = html`${listed.ok ? '' : problemsNotice(listed.messages)}${unknownClient ? problemsNotice(['The company in view has no such client.']) : ''}
<form method="get" action="${PATH}" class="grid-form" aria-label="Filter payments">
  <input type="hidden" name="company" value="${company.id}">
  <div class="field"><label for="filter-status">Status</label><select id="filter-status" name="status">${TRANSACTION_STATUSES.map((s) => html`<option value="${s}"${s === status ? html` selected` : ''}>${s}</option>`)}</select></div>
  <div class="field"><label for="filter-type">Type</label><select id="filter-type" name="type"><option value="">any</option>${Object.entries(TRANSACTION_TYPES).map(
    ([value, label]) => html`<option value="${value}"${value === type ? html` selected` : ''}>${label}</option>`,
  )}</select></div>
  <div class="field"><label for="filter-client">Client number <span class="hint">(optional)</span></label><input type="text" inputmode="numeric" id="filter-client" name="client_id" value="${one(ctx.query.client_id)}" maxlength="9"></div>
  <div class="field"><label for="filter-from">From day <span class="hint">(YYYY-MM-DD, UTC)</span></label><input type="date" id="filter-from" name="date_from" value="${dateFrom}"></div>
  <div class="field"><label for="filter-to">To day <span class="hint">(YYYY-MM-DD, UTC)</span></label><input type="date" id="filter-to" name="date_to" value="${dateTo}"></div>
  <div><button type="submit">Filter</button></div>
</form>
${dataTable(
  'Transactions',
  [{ label: 'Date (UTC)' }, { label: 'Client' }, { label: 'Amount', numeric: true }, { label: 'Type' }, { label: 'Gateway' }, { label: 'Status' }, { label: 'Transaction' }],
  transactions.map((t) => [
    t.date_added,
    html`<a href="${hrefFor('/admin/clients/view', company, { client_id: String(t.client_id), tab: 'transactions' })}">${names.get(t.client_id) ?? ''}</a>`,
    moneyText(t.amount, t.currency),
    TRANSACTION_TYPES[t.type as keyof typeof TRANSACTION_TYPES] ?? t.type,
    t.gateway ?? '',
    t.status,
    html`<a href="${hrefFor(`${PATH}/view`, company, { transaction_id: String(t.id) })}">#${t.id}</a>`,
  ]),
  html`No transactions match these filters. Payments are recorded from an invoice (<a href="${hrefFor('/admin/invoices', company)}">Invoices</a>) or arrive from a gateway.`,
)}
${pager(PATH, company, page, total, PAGE_SIZE, kept)}`;
  sendHtml(ctx, listed.ok && !unknownClient ? 200 : 400, staffPage(request, 'payments', 'Payments', content));
};
