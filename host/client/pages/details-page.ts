import { html } from '../../web/html';
import { notice, redirectTo, sendHtml } from '../../web/page-response';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { call, ClientRequest } from '../client-request';
import { clientPage, csrfField, wordsOf } from '../client-layout';
import { detailInputs, detailVars } from './contact-form';

/** GET /client/details: the client's own name and address; a contact sees them, only the client changes them. */
export async function showDetails(request: ClientRequest, problems?: string[], typed?: Record<string, unknown>): Promise<void> {
  const client = (await call(request, 'clients', 'get', { client_id: request.session.clientId, get_settings: false })) as Record<string, unknown>;
  const own = request.session.contactId === null;
  const saved = request.ctx.query.saved !== undefined && !problems;
  const words = wordsOf(request.company);
  const { t } = words;
  sendHtml(
    request.ctx,
    problems ? 400 : 200,
    clientPage(
      request,
      'details',
      t('details.title'),
      html`${saved ? notice('ok', t('details.saved')) : ''}${problems ? problemsNotice(problems) : ''}
${own ? '' : html`<p>${t('details.ownerOnly')}</p>`}
<form method="post" action="/client/details" class="stacked panel">
${csrfField(request)}
${detailInputs(words, typed ?? client, 'details', !own)}
${own ? html`<div><button type="submit">${t('details.save')}</button></div>` : ''}
</form>`,
    ),
  );
}

/** POST /client/details */
export async function saveDetails(request: ClientRequest): Promise<void> {
  const vars = detailVars(request.form);
  const outcome = await attempt(() => call(request, 'clients', 'edit', { client_id: request.session.clientId, vars }));
  if (!outcome.ok) return showDetails(request, outcome.messages, vars);
  redirectTo(request.ctx, '/client/details?saved=1');
}
