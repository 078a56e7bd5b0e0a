import { html, SafeHtml } from '../../web/html';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { notice, sendHtml } from '../../web/page-response';
import { call, ClientRequest } from '../client-request';
import { clientPage, csrfField } from '../client-layout';
import { day } from './invoice-view';
import { notFound } from './not-found';

const STATUS_NAMES: Record<string, string> = {
  pending: 'Pending',
  in_review: 'In review',
  active: 'Active',
  suspended: 'Suspended',
  canceled: 'Canceled',
  scheduled_cancellation: 'Cancels at term end',
};

interface ServiceRecord {
  readonly id: number;
  readonly name: string;
  readonly status: string;
  readonly date_renews: string | null;
  readonly date_canceled: string | null;
}

/** Whether the client may cancel the service at term end: it renews, is not canceled or already scheduled. */
const cancellable = (s: ServiceRecord) => (s.status === 'active' || s.status === 'suspended') && s.date_renews !== null && s.date_canceled === null;

/** Whether the company lets clients cancel their services (clients_cancel_services), read as the client. */
async function clientsMayCancel(request: ClientRequest): Promise<boolean> {
  const setting = (await call(request, 'companies', 'getSetting', { company_id: request.session.companyId, key: 'clients_cancel_services' })) as { value: string } | false;
  return !!setting && setting.value === 'true';
}

/** GET /client/services: every service of the client, its status and when it renews. */
export async function showServices(request: ClientRequest, status = 200, message?: SafeHtml): Promise<void> {
  const services = (await call(request, 'services', 'getList', { client_id: request.session.clientId, status: 'all', page: 1 })) as ServiceRecord[];
  const mayCancel = await clientsMayCancel(request);
  const ends = (s: ServiceRecord) => (s.date_canceled ? `Cancels ${day(s.date_canceled)}` : s.date_renews ? day(s.date_renews) : 'Does not renew');
  const action = (s: ServiceRecord) => {
    if (!mayCancel) return '';
    if (cancellable(s)) {
      return html`<form method="post" action="/client/services/cancel">${csrfField(request)}<input type="hidden" name="service_id" value="${s.id}"><button type="submit" class="small" aria-label="Cancel at term end: ${s.name}">Cancel at term end</button></form>`;
    }
    if (s.date_canceled !== null && s.status !== 'canceled' && s.date_renews !== null) {
      return html`<form method="post" action="/client/services/keep">${csrfField(request)}<input type="hidden" name="service_id" value="${s.id}"><button type="submit" class="small secondary" aria-label="Keep this service: ${s.name}">Keep this service</button></form>`;
    }
    return '';
  };
  sendHtml(
    request.ctx,
    status,
    clientPage(
      request,
      'services',
      'Services',
      services.length === 0
        ? html`${message ?? ''}<p>You have no services.</p>`
        : html`${message ?? ''}<div class="table-wrap"><table>
<caption>Your services</caption>
<thead><tr><th scope="col">Service</th><th scope="col">Status</th><th scope="col">Renews</th>${mayCancel ? html`<th scope="col">Cancel</th>` : ''}</tr></thead>
<tbody>${services.map(
            (s) =>
              html`<tr><td data-label="Service">${s.name}</td><td data-label="Status">${s.date_canceled && s.status !== 'canceled' ? STATUS_NAMES.scheduled_cancellation : (STATUS_NAMES[s.status] ?? s.status)}</td><td data-label="Renews">${ends(s)}</td>${mayCancel ? html`<td data-label="Cancel">${action(s)}</td>` : ''}</tr>`,
          )}</tbody>
</table></div>`,
    ),
  );
}

/**
 * POST /client/services/cancel: service_id. Schedules the cancellation at the service's renew date
 * (services/cancel with end_of_term): the client keeps it until then. The client scope lets this
 * through only for the client's own renewing service, and only where the company allows it.
 */
export async function cancelService(request: ClientRequest): Promise<void> {
  const serviceId = field(request.form, 'service_id');
  if (!/^\d{1,15}$/.test(serviceId)) return notFound(request);
  const outcome = await attempt(() => call(request, 'services', 'cancel', { service_id: Number(serviceId), vars: { date_canceled: 'end_of_term' } }));
  if (!outcome.ok) return showServices(request, 400, problemsNotice(outcome.messages));
  const services = (await call(request, 'services', 'getList', { client_id: request.session.clientId, status: 'all', page: 1 })) as ServiceRecord[];
  const service = services.find((s) => s.id === Number(serviceId));
  await showServices(request, 200, notice('ok', `${service?.name ?? 'The service'} will be canceled at the end of its term, on ${day(service?.date_canceled ?? null)}; it stays yours until then.`));
}

/** POST /client/services/keep: service_id. Takes back a cancellation scheduled at term end (services/unCancel); the service renews as before. */
export async function keepService(request: ClientRequest): Promise<void> {
  const serviceId = field(request.form, 'service_id');
  if (!/^\d{1,15}$/.test(serviceId)) return notFound(request);
  const outcome = await attempt(() => call(request, 'services', 'unCancel', { service_id: Number(serviceId) }));
  if (!outcome.ok) return showServices(request, 400, problemsNotice(outcome.messages));
  await showServices(request, 200, notice('ok', 'The cancellation was taken back: the service renews as before.'));
}
