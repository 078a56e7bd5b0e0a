import { AdminRequest, callAs, PageHandler } from '../admin-request';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { sendHtml, staffPage } from '../layout';

interface AuditRow {
  readonly at: string;
  readonly company_id: number | null;
  readonly actor: string;
  readonly model: string;
  readonly method: string;
  readonly verb: string;
  readonly status: number;
  readonly request_id: string;
  readonly address: string;
  readonly params: string[];
}

const FILTERS = ['actor', 'credential_id', 'model', 'from', 'to'] as const;

/**
 * Audit: the newest writes and admin actions of the company in view (or every company), filtered
 * by who (API user or staff:<name>), credential id, model and time. Parameter names only, never values.
 */
export const showAudit: PageHandler = async (request) => {
  const query = request.ctx.query;
  const given: Record<string, string> = {};
  for (const name of FILTERS) if (typeof query[name] === 'string' && query[name] !== '') given[name] = query[name] as string;
  const everyCompany = query.all === '1';
  const filters = { ...given, ...(everyCompany ? {} : { company_id: String(request.company.id) }) };
  const outcome = await attempt(() => callAs(request, 'audit', 'getList', { filters }) as Promise<AuditRow[]>);
  const content = html`<section class="panel" aria-labelledby="filter-title">
  <h2 id="filter-title">Filter</h2>
  <form method="get" action="/admin/audit" class="inline-form">
    <input type="hidden" name="company" value="${request.company.id}">
    ${FILTERS.map((name) => html`<div class="field"><label for="f-${name}">${label(name)}</label><input type="text" id="f-${name}" name="${name}" value="${given[name] ?? ''}"></div>`)}
    <div class="field"><label><input type="checkbox" name="all" value="1"${everyCompany ? html` checked` : ''}> Every company</label></div>
    <div><button type="submit">Show</button></div>
  </form>
</section>
${outcome.ok ? rows(request, outcome.value, everyCompany) : problemsNotice(outcome.messages)}`;
  sendHtml(request.ctx, outcome.ok ? 200 : 400, staffPage(request, 'audit', 'Audit log', content));
};

function label(name: (typeof FILTERS)[number]): string {
  return { actor: 'Who (API user or staff:name)', credential_id: 'Credential id', model: 'Model', from: 'From (UTC)', to: 'To (UTC)' }[name];
}

function rows(request: AdminRequest, list: readonly AuditRow[], everyCompany: boolean): SafeHtml {
  const title = everyCompany ? 'Every company' : request.company.name;
  if (!list.length) return html`<section class="panel"><h2>${title}</h2><p>Nothing recorded for this filter.</p></section>`;
  return html`<section class="panel" aria-labelledby="rows-title"><h2 id="rows-title">${title}: the newest ${list.length}</h2>
<div class="table-wrap"><table>
  <thead><tr><th scope="col">When (UTC)</th><th scope="col">Company</th><th scope="col">Who</th><th scope="col">Call</th><th scope="col">Status</th><th scope="col">From</th><th scope="col">Parameters given</th><th scope="col">Request id</th></tr></thead>
  <tbody>
  ${list.map(
    (r) =>
      html`<tr><td>${r.at}</td><td>${String(r.company_id ?? '')}</td><td class="mono">${r.actor}</td><td class="mono">${r.verb} ${r.model}/${r.method}</td><td>${String(r.status)}</td><td>${r.address}</td><td class="mono">${r.params.join(', ')}</td><td class="mono">${r.request_id}</td></tr>`,
  )}
  </tbody>
</table></div></section>`;
}
