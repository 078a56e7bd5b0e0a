import { html } from '../../web/html';
import { sendHtml } from '../../web/page-response';
import { call, ClientRequest } from '../client-request';
import { clientPage } from '../client-layout';
import { day } from './invoice-view';

const STATUS_NAMES: Record<string, string> = {
  pending: 'Pending',
  in_review: 'In review',
  active: 'Active',
  suspended: 'Suspended',
  canceled: 'Canceled',
  scheduled_cancellation: 'Cancels at term end',
};

/** GET /client/services: every service of the client, its status and when it renews. */
export async function showServices(request: ClientRequest): Promise<void> {
  const services = (await call(request, 'services', 'getList', { client_id: request.session.clientId, status: 'all', page: 1 })) as Array<{
    id: number;
    name: string;
    status: string;
    date_renews: string | null;
  }>;
  sendHtml(
    request.ctx,
    200,
    clientPage(
      request,
      'services',
      'Services',
      services.length === 0
        ? html`<p>You have no services.</p>`
        : html`<div class="table-wrap"><table>
<caption>Your services</caption>
<thead><tr><th scope="col">Service</th><th scope="col">Status</th><th scope="col">Renews</th></tr></thead>
<tbody>${services.map((s) => html`<tr><td>${s.name}</td><td>${STATUS_NAMES[s.status] ?? s.status}</td><td>${s.date_renews ? day(s.date_renews) : 'Does not renew'}</td></tr>`)}</tbody>
</table></div>`,
    ),
  );
}
