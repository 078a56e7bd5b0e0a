import { AdminRequest, callAs, Company, hrefFor, PageHandler } from '../admin-request';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice, redirectTo, sendHtml, staffPage } from '../layout';
import { mayChange, viewOnlyNote } from '../area-gate';

const PATH = '/admin/settings/system';
const DONE: Record<string, string> = {
  maintenance_on: 'Maintenance mode is on: the API answers 503 to every call until it is turned off.',
  maintenance_off: 'Maintenance mode is off: the API is serving calls again.',
  timezone: 'The time zone has been saved.',
  company: 'The company has been added.',
};

/** Settings → System: maintenance mode, the company's time zone, and the companies of the installation. */
export const showSystem: PageHandler = async (request) => {
  const code = String(request.ctx.query.done ?? '');
  const done = DONE[code];
  await render(request, 200, { top: done ? notice(code === 'maintenance_on' ? 'warn' : 'ok', done) : undefined });
};

export const setMaintenance: PageHandler = async (request) => {
  const on = field(request.form, 'maintenance') === 'on';
  await callAs(request, 'settings', 'set', { key: 'maintenance_mode', value: String(on) });
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: on ? 'maintenance_on' : 'maintenance_off' }));
};

export const setTimezone: PageHandler = async (request) => {
  const timezone = field(request.form, 'timezone');
  const outcome = await attempt(() => callAs(request, 'settings', 'set', { key: 'timezone', value: timezone, company_id: request.company.id }));
  if (!outcome.ok) return render(request, 400, { top: problemsNotice(outcome.messages) });
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'timezone' }));
};

export const addCompany: PageHandler = async (request) => {
  const name = field(request.form, 'name');
  const hostname = field(request.form, 'hostname');
  const outcome = await attempt(() => callAs(request, 'companies', 'add', { vars: { name, hostname } }));
  if (!outcome.ok) return render(request, 400, { top: problemsNotice(outcome.messages), name, hostname });
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'company' }));
};

async function render(request: AdminRequest, status: number, view: { top?: SafeHtml; name?: string; hostname?: string }) {
  const [maintenance, timezone, companies] = await Promise.all([
    callAs(request, 'settings', 'get', { key: 'maintenance_mode' }),
    callAs(request, 'settings', 'get', { key: 'timezone', company_id: request.company.id }),
    callAs(request, 'companies', 'getAll') as Promise<Company[]>,
  ]);
  const on = maintenance === 'true';
  // The forms change settings: a member whose group may not is told so instead of offered them.
  const manage = mayChange(request, 'settings');
  const content = html`${view.top ?? ''}${viewOnlyNote(request, 'settings')}
<section class="panel" aria-labelledby="maintenance-title">
  <h2 id="maintenance-title">Maintenance mode</h2>
  <p>Maintenance mode is <span class="status ${on ? 'warn' : 'off'}">${on ? 'on' : 'off'}</span>. ${on ? 'The API answers 503 to every call; this area keeps working.' : 'The API is serving calls.'}</p>
  ${
    manage
      ? html`<form method="post" action="${PATH}/maintenance">
    ${formBasics(request)}
    <input type="hidden" name="maintenance" value="${on ? 'off' : 'on'}">
    <button type="submit" class="${on ? '' : 'danger'}"${on ? '' : html` data-confirm="Turn maintenance mode on? Every API call will be refused with 503 until it is turned off."`}>Turn maintenance mode ${on ? 'off' : 'on'}</button>
  </form>`
      : ''
  }
</section>
<section class="panel" aria-labelledby="timezone-title">
  <h2 id="timezone-title">Time zone of ${request.company.name}</h2>
  <p class="hint">Timestamps given without a zone in API calls are read in this zone.</p>
  ${
    manage
      ? html`<form method="post" action="${PATH}/timezone" class="inline-form">
    ${formBasics(request)}
    <div class="field">
      <label for="timezone">Time zone</label>
      <select id="timezone" name="timezone">${zones(String(timezone)).map((z) => html`<option${z === timezone ? html` selected` : ''}>${z}</option>`)}</select>
    </div>
    <div><button type="submit">Save time zone</button></div>
  </form>`
      : html`<p>${String(timezone)}</p>`
  }
</section>
<section class="panel" aria-labelledby="companies-title">
  <h2 id="companies-title">Companies</h2>
  <div class="table-wrap"><table>
    <thead><tr><th scope="col" class="num">ID</th><th scope="col">Name</th><th scope="col">Hostname</th><th scope="col">Added (UTC)</th></tr></thead>
    <tbody>${companies.map((c) => html`<tr><td class="num">${c.id}</td><td><a href="${hrefFor(PATH, c)}">${c.name}</a></td><td>${c.hostname ?? ''}</td><td>${c.date_added}</td></tr>`)}</tbody>
  </table></div>
  ${
    manage
      ? html`<h3 id="add-company-title">Add a company</h3>
  <form method="post" action="${PATH}/companies" class="inline-form" aria-labelledby="add-company-title">
    ${formBasics(request)}
    <div class="field"><label for="company-name">Name</label><input type="text" id="company-name" name="name" maxlength="255" required value="${view.name ?? ''}"></div>
    <div class="field"><label for="company-hostname">Hostname <span class="hint">(optional)</span></label><input type="text" id="company-hostname" name="hostname" maxlength="255" value="${view.hostname ?? ''}"></div>
    <div><button type="submit">Add company</button></div>
  </form>`
      : ''
  }
</section>`;
  sendHtml(request.ctx, status, staffPage(request, 'system', 'System', content));
}

/** Every IANA zone the runtime knows, UTC first, and the current value even if the runtime lacks it. */
function zones(current: string): string[] {
  const list = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];
  if (!list.includes(current)) list.splice(1, 0, current);
  return list;
}
