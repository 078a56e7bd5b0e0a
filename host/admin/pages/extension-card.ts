import { AdminRequest } from '../admin-request';
import { ListedExtension } from '../extension-listing';
import { declaredFieldInputs } from '../components/declared-fields';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice } from '../layout';
import { mayChange } from '../area-gate';

const ACTIONS = '/admin/settings/extensions';

/** One discovered extension: what it is, its state for the company, and what can be done with it. */
export function extensionCard(request: AdminRequest, e: ListedExtension): SafeHtml {
  const titleId = `ext-${e.type}-${e.dir}`;
  const hidden = (action: string) =>
    html`${formBasics(request)}<input type="hidden" name="type" value="${e.type}"><input type="hidden" name="dir" value="${e.dir}">${action === 'install' ? '' : html`<input type="hidden" name="id" value="${e.id}">`}`;
  const button = (action: string, label: string, style = '', confirm?: string) =>
    html`<form method="post" action="${ACTIONS}/${action}">${hidden(action)}<button type="submit" class="small ${style}" aria-label="${label} ${e.name}"${confirm ? html` data-confirm="${confirm}"` : ''}>${label}</button></form>`;
  const installed = e.id !== null;
  const hasSettings = Object.keys(e.declared).length > 0;
  // Installing, switching and configuring are the settings area's: without it the card only describes.
  const manage = mayChange(request, 'settings');
  return html`<li class="card extension">
<article aria-labelledby="${titleId}">
  <h3 id="${titleId}">${e.name} <span class="status ${e.status}">${e.status}</span></h3>
  <p class="detail">${e.type}${e.kind ? ` (${e.kind})` : ''} · <span class="mono">${e.dir}</span> · version ${e.version ?? 'unknown'}${e.installed_version && e.installed_version !== e.version ? ` (installed ${e.installed_version})` : ''}${e.authors.length ? ` · by ${e.authors.map((a) => a.name).join(', ')}` : ''}</p>
  ${e.description ? html`<p>${e.description}</p>` : ''}
  ${asksFor(e)}
  ${e.error ? notice('error', html`<strong>Load error:</strong> ${e.error}`) : ''}
  ${e.upgradable ? upgradeNotice(e) : ''}
  ${manage && !installed && e.loaded && !hasSettings ? html`<div class="actions">${button('install', 'Install')}</div>` : ''}
  ${manage && !installed && e.loaded && hasSettings ? settingsForm(request, e, 'install', hidden('install'), 'Install') : ''}
  ${
    manage && installed
      ? html`<div class="actions">
    ${e.upgradable ? button('upgrade', 'Upgrade') : ''}
    ${e.status === 'enabled' ? button('disable', 'Disable', 'secondary') : button('enable', 'Enable')}
    ${button('uninstall', 'Uninstall', 'danger', `Uninstall ${e.name} for ${request.company.name}? Its uninstall step runs, and its data is removed when no other company uses it.`)}
  </div>`
      : ''
  }
  ${manage && installed && hasSettings ? settingsForm(request, e, 'settings', hidden('settings'), 'Save settings') : ''}
</article>
</li>`;
}

/** What Upgrade would do: the version it records and the migrations it runs. */
function upgradeNotice(e: ListedExtension): SafeHtml {
  const versions = e.installed_version !== e.version ? html`version ${e.installed_version ?? 'unknown'} is installed, ${e.version ?? 'unknown'} is available` : html`version ${e.version ?? 'unknown'}`;
  const migrations = e.pending_migrations.length
    ? html`; upgrading runs ${e.pending_migrations.length === 1 ? 'the migration' : 'the migrations'} ${e.pending_migrations.map((m, i) => html`${i ? ', ' : ''}<span class="mono">${m}</span>`)}`
    : '';
  return notice('warn', html`<strong>Upgrade available:</strong> ${versions}${migrations}.`);
}

/** The manifest's settings as form fields; secret ones are never filled in, and blank keeps what is stored. */
function settingsForm(request: AdminRequest, e: ListedExtension, action: string, hidden: SafeHtml, submit: string): SafeHtml {
  const prefix = `${e.type}-${e.dir}-${action}`;
  return html`<form method="post" action="${ACTIONS}/${action}" aria-label="${submit} for ${e.name}">
  ${hidden}
  <fieldset class="stacked">
  <legend>${action === 'install' ? 'Settings to install with' : 'Settings'}</legend>
  ${declaredFieldInputs(e.declared, { id: (key) => `${prefix}-${key}`, name: (key) => `settings[${key}]` }, e.values, e.secretsSet)}
  <div><button type="submit" class="small">${submit}</button></div>
  </fieldset>
</form>`;
}

/**
 * What the extension may reach beyond its own code, shown before it is installed: the installation's
 * methods it calls as the company, the hosts it sends HTTP to, the tables it keeps its data in, the
 * events it is told of and the tasks it runs unattended.
 */
function asksFor(e: ListedExtension): SafeHtml {
  const c = e.capabilities ?? { uses: [], hosts: [], tables: [], events: [], tasks: [] };
  const row = (label: string, items: readonly string[], none: string) =>
    html`<li>${label}: ${items.length ? html`${items.map((item, i) => html`${i ? ', ' : ''}<span class="mono">${item}</span>`)}` : none}</li>`;
  return html`<details class="capabilities"${e.id === null ? html` open` : ''}>
    <summary>What it asks for</summary>
    <ul>
      ${row('Calls these methods as your company', c.uses, 'none')}
      ${row('Sends HTTP requests to', c.hosts, 'no host')}
      ${row('Keeps its data in the tables', c.tables, 'none')}
      ${row('Is told of these events in your company', c.events ?? [], 'none')}
      ${row(
        'Runs these tasks unattended',
        (c.tasks ?? []).map((t) => `${t.name} (${t.schedule})`),
        'none',
      )}
    </ul>
    <p class="hint">It runs in a sandbox: no files, environment, processes or network beyond this list, and only your company's rows.</p>
  </details>`;
}
