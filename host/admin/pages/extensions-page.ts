import { EXTENSION_TYPES, ExtensionType, SettingDeclaration } from '../../../core/kernel/extension-catalog';
import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { declaredSettings, hasExtensionManagers, listExtensions, managerOf } from '../extension-listing';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { withoutBlankSecrets } from '../components/declared-fields';
import { html, SafeHtml } from '../../web/html';
import { notice, redirectTo, sendHtml, staffPage } from '../layout';
import { viewOnlyNote } from '../area-gate';
import { extensionCard } from './extension-card';
import { extensionTaskAction, extensionTasksPanel, taskNotice } from './extension-tasks-panel';

const PATH = '/admin/settings/extensions';
const HEADINGS: Record<ExtensionType, string> = { plugin: 'Plugins', module: 'Modules', gateway: 'Gateways' };
const DONE: Record<string, string> = { install: 'installed', enable: 'enabled', disable: 'disabled', upgrade: 'upgraded', uninstall: 'uninstalled', settings: 'saved' };

/** Settings → Extensions: every discovered plugin, module and gateway, and its state for the company. */
export const showExtensions: PageHandler = async (request) => {
  const done = DONE[String(request.ctx.query.done ?? '')];
  const type = EXTENSION_TYPES.find((t) => t === request.ctx.query.type);
  await render(request, 200, done && type ? notice('ok', `The ${type} has been ${done === 'saved' ? 'updated' : done}.`) : taskNotice(request));
};

/** POST /admin/settings/extensions/task-enable|task-disable: one of the company's extension tasks. */
export const enableExtensionTask = extensionTaskAction(true, (request, status, top) => render(request, status, top));
export const disableExtensionTask = extensionTaskAction(false, (request, status, top) => render(request, status, top));

/** POST /admin/settings/extensions/<action>: through the type's manager, for the company in view. */
export function extensionAction(action: keyof typeof DONE): PageHandler {
  return async (request) => {
    const type = EXTENSION_TYPES.find((t) => t === field(request.form, 'type'));
    if (!type || !hasExtensionManagers(request)) return render(request, 400, problemsNotice(['Unknown extension type.']));
    const id = { [`${type}_id`]: field(request.form, 'id') };
    const settings = submittedSettings(request.form.settings, declaredSettings(request, type, field(request.form, 'dir')));
    const outcome = await attempt(() => {
      if (action === 'install') return callAs(request, managerOf(type), 'add', { vars: { dir: field(request.form, 'dir'), settings } });
      if (action === 'settings') return callAs(request, managerOf(type), 'edit', { ...id, vars: { settings } });
      return callAs(request, managerOf(type), action === 'uninstall' ? 'delete' : action, id);
    });
    if (!outcome.ok) return render(request, 400, problemsNotice(outcome.messages));
    redirectTo(request.ctx, hrefFor(PATH, request.company, { done: action, type }));
  };
}

/** A blank secret field means "keep what is stored" (the form never shows secrets), so it is left out. */
function submittedSettings(value: unknown, declared: Readonly<Record<string, SettingDeclaration>>): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return withoutBlankSecrets(value as Record<string, unknown>, declared);
}

async function render(request: AdminRequest, status: number, top?: SafeHtml) {
  let content: SafeHtml;
  if (!hasExtensionManagers(request)) {
    content = html`${top ?? ''}<section class="panel"><p>This installation has no extension managers, so there is nothing to show.</p></section>`;
  } else {
    const sections = await Promise.all(EXTENSION_TYPES.map(async (type) => ({ type, extensions: await listExtensions(request, type) })));
    content = html`${top ?? ''}${viewOnlyNote(request, 'settings')}
<p class="hint">Extensions are found in the installation's extensions directory and installed per company. Changes here apply to ${request.company.name}.</p>
${sections.map(
  ({ type, extensions }) => html`<section class="panel" aria-labelledby="${type}-title">
  <h2 id="${type}-title">${HEADINGS[type]}</h2>
  ${extensions.length ? html`<ul class="cards extensions">${extensions.map((e) => extensionCard(request, e))}</ul>` : html`<p>No ${type}s were found.</p>`}
</section>`,
)}
${await extensionTasksPanel(request)}`;
  }
  sendHtml(request.ctx, status, staffPage(request, 'extensions', 'Extensions', content));
}
