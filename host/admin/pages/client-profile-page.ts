import Decimal from 'decimal.js';
import { AdminRequest, callAs, hasCallable, hrefFor, PageHandler } from '../admin-request';
import { dataTable } from '../components/data-table';
import { tabLinks } from '../components/list-controls';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice, redirectTo, sendHtml, staffPage } from '../layout';
import { moneyText } from '../money-text';
import { statusPage } from './status-page';
import { mayChange, viewOnlyNote } from '../area-gate';
import { CLIENT_STATUS_LABELS, clientName, ClientRecord, findClient } from './client-records';
import { InvoiceSummary, invoiceRows, INVOICE_COLUMNS } from './invoice-records';
import { MailLogEntry, mailLogTable } from './mail-log-records';
import { SERVICE_STATUS_LABELS } from './service-records';
import { pluginCardsPanel } from './plugin-cards-panel';

const TABS = ['summary', 'contacts', 'services', 'invoices', 'transactions', 'notes', 'mail'] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS: Record<Tab, string> = { summary: 'Summary', contacts: 'Contacts', services: 'Services', invoices: 'Invoices', transactions: 'Transactions', notes: 'Notes', mail: 'Mail log' };
const DONE: Record<string, string> = { added: 'The client has been added.', saved: 'The client has been saved.', note: 'The note has been added.' };

interface Contact {
  readonly id: number;
  readonly contact_type: string;
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
  readonly company: string | null;
}
interface Service {
  readonly id: number;
  readonly status: string;
  readonly name?: string | null;
  readonly package?: { names?: Array<{ name: string }> } | null;
  readonly date_renews: string | null;
  readonly date_added: string;
}
interface Transaction {
  readonly id: number;
  readonly amount: string;
  readonly currency: string;
  readonly type: string;
  readonly status: string;
  readonly reference: string | null;
  readonly date_added: string;
}
interface Note {
  readonly id: number;
  readonly title: string;
  readonly description: string | null;
  readonly date_added: string;
}

/**
 * A client's profile, a tab a page (plain links): summary (balance, credit, open and overdue
 * totals per currency), contacts, services, invoices, transactions and notes, each read through
 * the models as the signed-in staff member.
 */
export const showClient: PageHandler = async (request) => {
  const client = await findClient(request, request.ctx.query.client_id);
  if (!client)
    return sendHtml(request.ctx, 404, statusPage('No such client', 'The company in view has no such client.', { href: hrefFor('/admin/clients', request.company), label: 'Back to the clients' }));
  const tab = (TABS as readonly string[]).includes(String(request.ctx.query.tab)) ? (request.ctx.query.tab as Tab) : 'summary';
  const done = DONE[String(request.ctx.query.done ?? '')];
  const resent = Number(request.ctx.query.resent ?? 0);
  const top = done ? notice('ok', done) : Number.isInteger(resent) && resent > 0 ? notice('ok', `The message is in the outbox again as entry ${resent}.`) : undefined;
  await render(request, 200, client, tab, top);
};

/** Notes → Add a note: clients/addNote with the signed-in staff member as its author. */
export const addClientNote: PageHandler = async (request) => {
  const client = await findClient(request, field(request.form, 'client_id'));
  if (!client) return sendHtml(request.ctx, 404, statusPage('No such client', 'The company in view has no such client.'));
  const vars = { title: field(request.form, 'title'), description: field(request.form, 'description') };
  const outcome = await attempt(() => callAs(request, 'clients', 'addNote', { client_id: client.id, staff_id: request.session.staffId, vars }));
  if (!outcome.ok) return render(request, 400, client, 'notes', problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor('/admin/clients/view', request.company, { client_id: String(client.id), tab: 'notes', done: 'note' }));
};

const profileHref = (request: AdminRequest, client: ClientRecord, tab: Tab) => hrefFor('/admin/clients/view', request.company, { client_id: String(client.id), tab });

async function render(request: AdminRequest, status: number, client: ClientRecord, tab: Tab, top?: SafeHtml) {
  const name = clientName(client);
  const [body, cards] = await Promise.all([TAB_CONTENT[tab](request, client), pluginCardsPanel(request)]);
  const content = html`${top ?? ''}
<p>Client ${client.id_code} · ${CLIENT_STATUS_LABELS[client.status] ?? client.status}${client.company ? ` · ${client.company}` : ''}${client.email ? ` · ${client.email}` : ''}</p>
${
  mayChange(request, 'billing') || mayChange(request, 'clients')
    ? html`<p class="actions">${mayChange(request, 'billing') ? html`<a class="button" href="${hrefFor('/admin/invoices/add', request.company, { client_id: String(client.id) })}">Create an invoice</a>` : ''} ${
        mayChange(request, 'clients') ? html`<a href="${hrefFor('/admin/clients/edit', request.company, { client_id: String(client.id) })}">Edit client</a>` : ''
      }</p>`
    : viewOnlyNote(request, 'clients')
}
${cards}
${tabLinks(
  `Sections of ${name}`,
  TABS.filter((t) => t !== 'services' || hasCallable(request.installation, 'services', 'getList')).map((t) => ({ key: t, label: TAB_LABELS[t], href: profileHref(request, client, t) })),
  tab,
)}
<section class="panel" aria-labelledby="tab-title"><h2 id="tab-title">${TAB_LABELS[tab]}</h2>
${body}
</section>`;
  sendHtml(request.ctx, status, staffPage(request, 'clients', name, content));
}

const TAB_CONTENT: Record<Tab, (request: AdminRequest, client: ClientRecord) => Promise<SafeHtml>> = {
  async mail(request, client) {
    const entries = (await callAs(request, 'clients', 'getMailLogList', { client_id: client.id })) as MailLogEntry[];
    return mailLogTable(request, `Mail sent to ${name(client)} (latest 25)`, entries, { client_id: String(client.id) }, `Nothing has been mailed to ${name(client)} yet.`);
  },
  async summary(request, client) {
    const [open, overdue, credits] = (await Promise.all([
      callAs(request, 'invoices', 'getAll', { client_id: client.id, status: 'open' }),
      callAs(request, 'invoices', 'getAll', { client_id: client.id, status: 'past_due' }),
      callAs(request, 'transactions', 'getCredits', { client_id: client.id }),
    ])) as [InvoiceSummary[], InvoiceSummary[], Array<{ currency: string; credit: string }>];
    const currencies = [...new Set([...open.map((i) => i.currency), ...credits.map((c) => c.currency)])].sort();
    if (!currencies.length)
      return html`<p class="empty">${name(client)} owes nothing and has no credit.${
        mayChange(request, 'billing') ? html` <a href="${hrefFor('/admin/invoices/add', request.company, { client_id: String(client.id) })}">Create an invoice</a> to bill them.` : ''
      }</p>`;
    const sum = (rows: ReadonlyArray<{ currency: string }>, pick: (row: never) => string, currency: string) =>
      rows.filter((r) => r.currency === currency).reduce((total, r) => total.plus(pick(r as never)), new Decimal(0));
    return html`${currencies.map((currency) => {
      const due = sum(open, (i: InvoiceSummary) => i.due, currency);
      const late = sum(overdue, (i: InvoiceSummary) => i.due, currency);
      const credit = sum(credits, (c: { credit: string }) => c.credit, currency);
      const figure = (label: string, amount: Decimal, href?: string) =>
        html`<li><span class="hint">${label}</span><span class="value">${href ? html`<a href="${href}">${moneyText(amount.toFixed(4), currency)}</a>` : moneyText(amount.toFixed(4), currency)}</span></li>`;
      return html`<h3>${currency}</h3><ul class="totals" aria-label="Totals in ${currency}">
${figure('Balance (open less credit)', due.minus(credit))}
${figure('Credit', credit)}
${figure(`Open (${open.filter((i) => i.currency === currency).length})`, due, hrefFor('/admin/clients/view', request.company, { client_id: String(client.id), tab: 'invoices' }))}
${figure(`Overdue (${overdue.filter((i) => i.currency === currency).length})`, late, hrefFor('/admin/invoices', request.company, { status: 'past_due', client_id: String(client.id) }))}
</ul>`;
    })}`;
  },
  async contacts(request, client) {
    const contacts = (await callAs(request, 'contacts', 'getAll', { client_id: client.id })) as Contact[];
    return dataTable(
      `Contacts of ${name(client)}`,
      [{ label: 'Name' }, { label: 'Type' }, { label: 'Email' }, { label: 'Company' }],
      contacts.map((c) => [`${c.first_name} ${c.last_name}`, c.contact_type, c.email, c.company ?? '']),
      mayChange(request, 'clients')
        ? html`No contacts yet: <a href="${hrefFor('/admin/clients/edit', request.company, { client_id: String(client.id) })}">edit the client</a> to give it its primary contact.`
        : 'No contacts yet.',
    );
  },
  async services(request, client) {
    const services = (await callAs(request, 'services', 'getList', { client_id: client.id, status: 'all' })) as Service[];
    // Adding a service is the services area's (area-gate.ts): without it the tab says so and offers no actions.
    const manage = mayChange(request, 'services');
    const serviceName = (s: Service) => s.name ?? s.package?.names?.[0]?.name ?? `Service ${s.id}`;
    return html`${manage ? html`<p><a class="button" href="${hrefFor('/admin/services/add', request.company, { client_id: String(client.id) })}">Add a service</a></p>` : viewOnlyNote(request, 'services')}
${dataTable(
  `Services of ${name(client)}`,
  [{ label: 'Service' }, { label: 'Status' }, { label: 'Renews' }, { label: 'Added' }],
  services.map((s) => [
    html`<a href="${hrefFor('/admin/services/view', request.company, { service_id: String(s.id) })}">${serviceName(s)}</a>`,
    SERVICE_STATUS_LABELS[s.status] ?? s.status,
    s.date_renews ?? '—',
    s.date_added,
  ]),
  manage ? `${name(client)} has no services yet. Add one from a package's pricing.` : `${name(client)} has no services yet.`,
)}`;
  },
  async invoices(request, client) {
    const invoices = (await callAs(request, 'invoices', 'getList', { client_id: client.id, status: 'all', order_by: { date_billed: 'DESC' } })) as InvoiceSummary[];
    return html`${dataTable(
      `Invoices of ${name(client)}`,
      INVOICE_COLUMNS.filter((c) => c.label !== 'Client'),
      invoiceRows(request, invoices, null),
      mayChange(request, 'billing') ? html`No invoices yet. <a href="${hrefFor('/admin/invoices/add', request.company, { client_id: String(client.id) })}">Create an invoice</a>.` : 'No invoices yet.',
    )}
<p><a href="${hrefFor('/admin/invoices', request.company, { client_id: String(client.id), status: 'all' })}">Every invoice of ${name(client)}</a></p>`;
  },
  async transactions(request, client) {
    const transactions = (await callAs(request, 'transactions', 'getList', { client_id: client.id, status: 'all' })) as Transaction[];
    return dataTable(
      `Transactions of ${name(client)}`,
      [{ label: 'Date (UTC)' }, { label: 'Amount', numeric: true }, { label: 'Type' }, { label: 'Status' }, { label: 'Reference' }],
      transactions.map((t) => [t.date_added, moneyText(t.amount, t.currency), t.type, t.status, t.reference ?? '']),
      'No payments yet. Open an invoice and record a payment against it.',
    );
  },
  async notes(request, client) {
    const notes = (await callAs(request, 'clients', 'getNoteList', { client_id: client.id })) as Note[];
    return html`${dataTable(
      `Notes on ${name(client)}`,
      [{ label: 'Added (UTC)' }, { label: 'Title' }, { label: 'Note' }],
      notes.map((n) => [n.date_added, n.title, n.description ?? '']),
      mayChange(request, 'clients') ? 'No notes yet. Add the first one below.' : 'No notes yet.',
    )}
${
  mayChange(request, 'clients')
    ? html`<form method="post" action="/admin/clients/notes/add" class="stacked">
  ${formBasics(request)}<input type="hidden" name="client_id" value="${client.id}">
  <div class="field"><label for="note-title">Title</label><input type="text" id="note-title" name="title" required maxlength="255"></div>
  <div class="field"><label for="note-description">Note <span class="hint">(optional)</span></label><textarea id="note-description" name="description" rows="3"></textarea></div>
  <div><button type="submit">Add note</button></div>
</form>`
    : viewOnlyNote(request, 'clients')
}`;
  },
};

const name = clientName;
