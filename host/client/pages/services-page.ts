import { html, SafeHtml } from '../../web/html';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { notice, sendHtml } from '../../web/page-response';
import { call, ClientRequest } from '../client-request';
import { clientPage, csrfField, wordsOf } from '../client-layout';
import { notFound } from './not-found';
import { MessageKey } from '../language/messages-en';

/** The statuses a client is shown by name (any other is shown as stored). */
const STATUS_NAMES: ReadonlySet<string> = new Set(['pending', 'in_review', 'active', 'suspended', 'canceled', 'scheduled_cancellation']);

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
  const words = wordsOf(request.company);
  const { t } = words;
  const statusName = (s: ServiceRecord) => {
    const shown = s.date_canceled && s.status !== 'canceled' ? 'scheduled_cancellation' : s.status;
    return STATUS_NAMES.has(shown) ? t(`services.status.${shown}` as MessageKey) : shown;
  };
  const ends = (s: ServiceRecord) => (s.date_canceled ? t('services.cancels', { date: words.date(s.date_canceled) }) : s.date_renews ? words.date(s.date_renews) : t('services.noRenewal'));
  const action = (s: ServiceRecord) => {
    if (!mayCancel) return '';
    if (cancellable(s)) {
      return html`<form method="post" action="/client/services/cancel">${csrfField(request)}<input type="hidden" name="service_id" value="${s.id}"><button type="submit" class="small" aria-label="${t('services.cancelAtEndFor', { service: s.name })}">${t('services.cancelAtEnd')}</button></form>`;
    }
    if (s.date_canceled !== null && s.status !== 'canceled' && s.date_renews !== null) {
      return html`<form method="post" action="/client/services/keep">${csrfField(request)}<input type="hidden" name="service_id" value="${s.id}"><button type="submit" class="small secondary" aria-label="${t('services.keepFor', { service: s.name })}">${t('services.keep')}</button></form>`;
    }
    return '';
  };
  sendHtml(
    request.ctx,
    status,
    clientPage(
      request,
      'services',
      t('services.title'),
      services.length === 0
        ? html`${message ?? ''}<p>${t('services.none')}</p>`
        : html`${message ?? ''}<div class="table-wrap"><table>
<caption>${t('services.caption')}</caption>
<thead><tr><th scope="col">${t('services.service')}</th><th scope="col">${t('services.status')}</th><th scope="col">${t('services.renews')}</th>${mayCancel ? html`<th scope="col">${t('services.cancel')}</th>` : ''}</tr></thead>
<tbody>${services.map(
            (s) =>
              html`<tr><td data-label="${t('services.service')}">${s.name}</td><td data-label="${t('services.status')}">${statusName(s)}</td><td data-label="${t('services.renews')}">${ends(s)}</td>${mayCancel ? html`<td data-label="${t('services.cancel')}">${action(s)}</td>` : ''}</tr>`,
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
  const words = wordsOf(request.company);
  await showServices(request, 200, notice('ok', words.t('services.canceledAtEnd', { service: service?.name ?? words.t('services.theService'), date: words.date(service?.date_canceled ?? null) })));
}

/** POST /client/services/keep: service_id. Takes back a cancellation scheduled at term end (services/unCancel); the service renews as before. */
export async function keepService(request: ClientRequest): Promise<void> {
  const serviceId = field(request.form, 'service_id');
  if (!/^\d{1,15}$/.test(serviceId)) return notFound(request);
  const outcome = await attempt(() => call(request, 'services', 'unCancel', { service_id: Number(serviceId) }));
  if (!outcome.ok) return showServices(request, 400, problemsNotice(outcome.messages));
  await showServices(request, 200, notice('ok', wordsOf(request.company).t('services.kept')));
}
