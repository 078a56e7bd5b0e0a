import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { wholeNumberOr } from '../components/list-controls';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice, redirectTo, sendHtml, staffPage } from '../layout';
import { moneyText } from '../money-text';
import { statusPage } from './status-page';
import { mayChange, viewOnlyNote, viewOnlyPage } from '../area-gate';
import { clientName, findClient } from './client-records';
import { findService, pricingOptions, SERVICE_STATUS_LABELS, ServiceRecord } from './service-records';
import { PackageRecord, pricingText } from './package-records';
import { chosenOptions, offeredOptions, optionFields, serviceOptionTexts } from './service-option-fields';

const DONE: Record<string, string> = {
  added: 'The service has been added.',
  suspended: 'The service has been suspended.',
  unsuspended: 'The service has been unsuspended.',
  canceled: 'The service has been canceled.',
  scheduled: 'The service will be canceled at the end of its term.',
  changed: 'The package has been changed; what the change costs or credits is on the client’s invoices and transactions.',
  queued: 'The change has been invoiced and waits for that invoice to be paid: the billing run applies it then (the company queues service changes).',
};

/** What each action button does, as the services model's method and its vars. */
const ACTIONS: Record<string, { method: string; vars: (request: AdminRequest) => Record<string, unknown>; done: string }> = {
  suspend: { method: 'suspend', vars: (r) => ({ suspension_reason: field(r.form, 'reason') || undefined }), done: 'suspended' },
  unsuspend: { method: 'unsuspend', vars: () => ({}), done: 'unsuspended' },
  cancel_now: { method: 'cancel', vars: () => ({}), done: 'canceled' },
  cancel_end: { method: 'cancel', vars: () => ({ date_canceled: 'end_of_term' }), done: 'scheduled' },
};

interface Quote {
  readonly package_name: string;
  readonly currency: string;
  readonly invoice: string;
  readonly credit: string;
  readonly credit_currency: string;
  readonly date_renews: string | null;
}

/** A client's profile → Services → Add a service: a package pricing for the client, through services/add. */
export const showAddService: PageHandler = async (request) => {
  const client = await findClient(request, request.ctx.query.client_id);
  if (!client) return noSuchClient(request);
  const done = request.ctx.query.done === 'restricted' ? notice('ok', 'The restricted packages this client may buy have been saved.') : undefined;
  await renderAdd(request, 200, client.id, clientName(client), done);
};

/** Add a service → Restricted packages: clients/setRestrictedPackages, the restricted packages the client may buy. */
export const setRestrictedPackages: PageHandler = async (request) => {
  const client = await findClient(request, field(request.form, 'client_id'));
  if (!client) return noSuchClient(request);
  const given = request.form.package_ids;
  const packageIds = (Array.isArray(given) ? given : given === undefined ? [] : [given]).map(String);
  const outcome = await attempt(() => callAs(request, 'clients', 'setRestrictedPackages', { client_id: client.id, package_ids: packageIds }));
  if (!outcome.ok) return renderAdd(request, 400, client.id, clientName(client), problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor('/admin/services/add', request.company, { client_id: String(client.id), done: 'restricted' }));
};

export const addService: PageHandler = async (request) => {
  const client = await findClient(request, field(request.form, 'client_id'));
  if (!client) return noSuchClient(request);
  const pricingId = field(request.form, 'pricing_id');
  const configoptions = await chosenOptions(request, wholeNumberOr(pricingId, 0));
  const vars = { client_id: client.id, pricing_id: pricingId, status: field(request.form, 'status') === 'pending' ? 'pending' : 'active', ...(configoptions ? { configoptions } : {}) };
  const outcome = await attempt(() => callAs(request, 'services', 'add', { vars }) as Promise<number>);
  if (!outcome.ok) return renderAdd(request, 400, client.id, clientName(client), problemsNotice(outcome.messages), wholeNumberOr(vars.pricing_id, 0));
  redirectTo(request.ctx, hrefFor('/admin/services/view', request.company, { service_id: String(outcome.value), done: 'added' }));
};

/** A service: its package and pricing, status and dates; suspend, unsuspend, cancel now or at term end, change package. */
export const showService: PageHandler = async (request) => {
  const service = await findService(request, request.ctx.query.service_id);
  if (!service) return noSuchService(request);
  const done = DONE[String(request.ctx.query.done ?? '')];
  await render(request, 200, service, done ? notice('ok', done) : undefined);
};

export const serviceAction: PageHandler = async (request) => {
  const service = await findService(request, field(request.form, 'service_id'));
  if (!service) return noSuchService(request);
  const action = Object.hasOwn(ACTIONS, field(request.form, 'action')) ? ACTIONS[field(request.form, 'action')] : null;
  if (!action) return render(request, 400, service, problemsNotice(['Choose suspend, unsuspend, cancel now or cancel at the end of the term.']));
  const outcome = await attempt(() => callAs(request, 'services', action.method, { service_id: service.id, vars: action.vars(request) }));
  if (!outcome.ok) return render(request, 400, service, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor('/admin/services/view', request.company, { service_id: String(service.id), done: action.done }));
};

/** Change package, step one: what the change would invoice and credit now (services/getChangeQuote), to confirm. */
export const showChangeQuote: PageHandler = async (request) => {
  const service = await findService(request, request.ctx.query.service_id);
  if (!service) return noSuchService(request);
  const pricingId = wholeNumberOr(request.ctx.query.pricing_id, 0);
  if (!mayChange(request, 'services'))
    return sendHtml(
      request.ctx,
      200,
      viewOnlyPage(request, 'services', 'clients', `Change the package of service ${service.id}`, {
        href: hrefFor('/admin/services/view', request.company, { service_id: String(service.id) }),
        label: 'Back to the service',
      }),
    );
  const quote = await attempt(() => callAs(request, 'services', 'getChangeQuote', { service_id: service.id, pricing_id: pricingId }) as Promise<Quote>);
  if (!quote.ok) return render(request, 400, service, problemsNotice(quote.messages));
  const q = quote.value;
  const options = await serviceOptionTexts(request, service.id);
  const invoiced = Number(q.invoice) > 0 ? `${moneyText(q.invoice, q.currency)} is invoiced now` : 'nothing is invoiced';
  const credited = Number(q.credit) > 0 ? `${moneyText(q.credit, q.credit_currency)} goes to the client’s credit` : 'nothing is credited';
  const content = html`<section class="panel" aria-labelledby="quote-title"><h2 id="quote-title">Change to ${q.package_name}</h2>
<p>${service.name} moves to ${q.package_name}. With the unused time of the current term prorated, ${invoiced} and ${credited}; it then renews ${q.date_renews ? q.date_renews.slice(0, 10) : 'never (one time)'}.</p>
${options.length ? html`<p>The service keeps its options (${options.join('; ')}), priced for the new package and term; the amounts include them.</p>` : ''}
<ul class="totals" aria-label="What the change does now">
  <li><span class="hint">Invoiced now</span><span class="value">${moneyText(q.invoice, q.currency)}</span></li>
  <li><span class="hint">Credited now</span><span class="value">${moneyText(q.credit, q.credit_currency)}</span></li>
</ul>
<form method="post" action="/admin/services/change">${formBasics(request)}<input type="hidden" name="service_id" value="${service.id}"><input type="hidden" name="pricing_id" value="${pricingId}">
<p><button type="submit">Confirm the change</button> <a href="${hrefFor('/admin/services/view', request.company, { service_id: String(service.id) })}">Cancel</a></p></form>
</section>`;
  sendHtml(request.ctx, 200, staffPage(request, 'clients', `Change the package of service ${service.id}`, content));
};

/** Change package, step two: services/edit with the pricing, which prorates as the quote said. */
export const changeServicePackage: PageHandler = async (request) => {
  const service = await findService(request, field(request.form, 'service_id'));
  if (!service) return noSuchService(request);
  const outcome = await attempt(() => callAs(request, 'services', 'edit', { service_id: service.id, vars: { pricing_id: field(request.form, 'pricing_id') } }));
  if (!outcome.ok) return render(request, 400, service, problemsNotice(outcome.messages));
  // With queue_service_changes on, a change that costs money waits for its invoice (service_changes).
  const waiting = (await callAs(request, 'service_changes', 'getListCount', { status: 'pending', service_id: service.id })) as number;
  redirectTo(request.ctx, hrefFor('/admin/services/view', request.company, { service_id: String(service.id), done: waiting ? 'queued' : 'changed' }));
};

function noSuchClient(request: AdminRequest) {
  sendHtml(request.ctx, 404, statusPage('No such client', 'The company in view has no such client.', { href: hrefFor('/admin/clients', request.company), label: 'Back to the clients' }));
}

function noSuchService(request: AdminRequest) {
  sendHtml(request.ctx, 404, statusPage('No such service', 'The company in view has no such service.', { href: hrefFor('/admin/clients', request.company), label: 'Back to the clients' }));
}

async function renderAdd(request: AdminRequest, status: number, clientId: number, name: string, top?: SafeHtml, pricingId: number | null = null) {
  if (!mayChange(request, 'services'))
    return sendHtml(
      request.ctx,
      status,
      viewOnlyPage(request, 'services', 'clients', `Add a service for ${name}`, {
        href: hrefFor('/admin/clients/view', request.company, { client_id: String(clientId), tab: 'services' }),
        label: `Back to ${name}`,
      }),
    );
  const [options, offered] = await Promise.all([pricingOptions(request, pricingId), offeredOptions(request)]);
  const content = html`${top ?? ''}
<section class="panel">
${
  options.text
    ? html`<form method="post" action="/admin/services/add" class="stacked">
  ${formBasics(request)}<input type="hidden" name="client_id" value="${clientId}">
  <div class="field"><label for="service-pricing">Package and pricing</label><select id="service-pricing" name="pricing_id" required>${options}</select></div>
  ${optionFields(offered)}
  <div class="field"><label for="service-status">Status</label><select id="service-status" name="status"><option value="active">Active now</option><option value="pending">Pending (provision later)</option></select></div>
  <p><button type="submit">Add service</button> <a href="${hrefFor('/admin/clients/view', request.company, { client_id: String(clientId), tab: 'services' })}">Cancel</a></p>
</form>`
    : html`<p class="empty">There are no packages to sell yet. <a href="${hrefFor('/admin/packages/add', request.company)}">Add a package</a> with its pricing first.</p>`
}
</section>
${await restrictedPanel(request, clientId)}`;
  sendHtml(request.ctx, status, staffPage(request, 'clients', `Add a service for ${name}`, content));
}

/** The restricted packages, ticked where the client may buy them; nothing when the company has none. */
async function restrictedPanel(request: AdminRequest, clientId: number): Promise<SafeHtml> {
  const restricted = (await callAs(request, 'packages', 'getAll', { status: 'restricted' })) as PackageRecord[];
  if (!restricted.length) return html``;
  const allowed = new Set(((await callAs(request, 'clients', 'getRestrictedPackages', { client_id: clientId })) as Array<{ package_id: number }>).map((r) => r.package_id));
  return html`<section class="panel" aria-labelledby="restricted-title"><h2 id="restricted-title">Restricted packages this client may buy</h2>
<form method="post" action="/admin/services/restricted">${formBasics(request)}<input type="hidden" name="client_id" value="${clientId}">
<fieldset><legend>Restricted packages</legend>${restricted.map(
    (p) => html`<label><input type="checkbox" name="package_ids[]" value="${p.id}"${allowed.has(p.id) ? html` checked` : ''}> ${p.name}</label> `,
  )}</fieldset>
<p><button type="submit">Save restricted packages</button></p></form>
</section>`;
}

async function render(request: AdminRequest, status: number, service: ServiceRecord, top?: SafeHtml) {
  const client = await findClient(request, String(service.client_id));
  const id = html`<input type="hidden" name="service_id" value="${service.id}">`;
  const button = (action: string, label: string, confirm?: string) =>
    html`<form method="post" action="/admin/services/action" class="inline-form">${formBasics(request)}${id}<input type="hidden" name="action" value="${action}"><button type="submit"${confirm ? html` class="danger" data-confirm="${confirm}"` : ''}>${label}</button></form>`;
  const live = service.status !== 'canceled';
  const options = await serviceOptionTexts(request, service.id);
  const content = html`${top ?? ''}
<p>${SERVICE_STATUS_LABELS[service.status] ?? service.status} service of ${client ? html`<a href="${hrefFor('/admin/clients/view', request.company, { client_id: String(client.id), tab: 'services' })}">${clientName(client)}</a>` : 'an unknown client'}.</p>
<ul class="totals" aria-label="The service">
  <li><span class="hint">Package</span><span class="value">${service.package.name}</span></li>
  <li><span class="hint">Pricing</span><span class="value">${pricingText({ ...service.package_pricing, price_renews: service.package_pricing.price, setup_fee: '0', cancel_fee: '0' })}</span></li>
  ${options.length ? html`<li><span class="hint">Options</span><span class="value">${options.map((o, i) => html`${i ? html`<br>` : ''}${o}`)}</span></li>` : ''}
  <li><span class="hint">Added</span><span class="value">${service.date_added.slice(0, 10)}</span></li>
  <li><span class="hint">Renews</span><span class="value">${service.date_renews?.slice(0, 10) ?? '—'}</span></li>
  ${service.date_canceled ? html`<li><span class="hint">${live ? 'Cancels' : 'Canceled'}</span><span class="value">${service.date_canceled.slice(0, 10)}</span></li>` : ''}
  ${service.suspension_reason ? html`<li><span class="hint">Suspended because</span><span class="value">${service.suspension_reason}</span></li>` : ''}
</ul>
${
  live && !mayChange(request, 'services')
    ? viewOnlyNote(request, 'services')
    : live
      ? html`<section class="panel" aria-labelledby="actions-title"><h2 id="actions-title">Actions</h2>
${
  service.status === 'active'
    ? html`<form method="post" action="/admin/services/action" class="grid-form">${formBasics(request)}${id}<input type="hidden" name="action" value="suspend">
  <div class="field"><label for="suspend-reason">Reason for suspending <span class="hint">(optional)</span></label><input type="text" id="suspend-reason" name="reason" maxlength="255"></div>
  <div><button type="submit" class="danger" data-confirm="Suspend this service?">Suspend</button></div></form>`
    : ''
}
${service.status === 'suspended' ? button('unsuspend', 'Unsuspend') : ''}
<p>${button('cancel_now', 'Cancel now', 'Cancel this service now?')} ${service.date_renews && !service.date_canceled ? button('cancel_end', 'Cancel at the end of the term', 'Cancel this service when its term ends?') : ''}</p>
<h3 id="change-title">Change package</h3>
<form method="get" action="/admin/services/change" class="grid-form" aria-labelledby="change-title">
  <input type="hidden" name="company" value="${request.company.id}">${id}
  <div class="field"><label for="change-pricing">New package and pricing</label><select id="change-pricing" name="pricing_id" required>${await pricingOptions(request, null, service.pricing_id)}</select></div>
  <div><button type="submit">See what it costs</button></div>
</form>
</section>`
      : ''
}`;
  sendHtml(request.ctx, status, staffPage(request, 'clients', `Service ${service.id}: ${service.name}`, content));
}
