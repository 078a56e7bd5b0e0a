import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { dataTable } from '../components/data-table';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice, redirectTo, sendHtml, staffPage } from '../layout';
import { statusPage } from './status-page';
import { mailTabs } from './mail-tabs';
import { attachmentsPanel } from './mail-attachments-panel';

/** emails/getList and getByType as the pages show them. */
interface Template {
  readonly id: number | null;
  readonly action: string;
  readonly type: 'client' | 'staff';
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  readonly customized: boolean;
  readonly tags: readonly string[];
}
interface Rendered {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
}

const LIST = '/admin/mail/templates';
const EDIT = '/admin/mail/templates/edit';
const RESET = '/admin/mail/templates/reset';
const DONE: Record<string, string> = {
  saved: 'The template has been saved.',
  reset: 'The template is the default again.',
  attached: 'The file has been attached.',
  detached: 'The attachment has been deleted.',
};
const PARTS = ['subject', 'html', 'text'] as const;

/** Mail → Templates: every template of the company in view, which are its own, and a link to each. */
export const showMailTemplates: PageHandler = async (request) => {
  const templates = (await callAs(request, 'emails', 'getList')) as Template[];
  const content = html`${mailTabs(request, 'templates')}
<section class="panel" aria-labelledby="templates-title">
  <h2 id="templates-title">Templates</h2>
  <p class="hint">Each message Tally sends is made from one of these. <code>{tag}</code> prints a tag (each template's page lists its own); in the HTML body every printed value is escaped.</p>
  ${dataTable(
    `Mail templates of ${request.company.name}`,
    [{ label: 'Template' }, { label: 'Sent to' }, { label: 'Subject' }, { label: 'Version' }],
    templates.map((t) => [
      html`<a href="${hrefFor(EDIT, request.company, { action: t.action })}">${t.action}</a>`,
      t.type === 'staff' ? 'Staff' : 'Clients',
      t.subject,
      t.customized ? 'Edited' : 'Default',
    ]),
    'The company has no templates.',
  )}
</section>`;
  sendHtml(request.ctx, 200, staffPage(request, 'mail', 'Mail templates', content));
};

/** One template: its subject and bodies to edit, its tags, and how it reads with sample values. */
export const showMailTemplate: PageHandler = async (request) => {
  const done = DONE[String(request.ctx.query.done ?? '')];
  await renderMailTemplate(request, 200, String(request.ctx.query.action ?? ''), done ? notice('ok', done) : undefined);
};

/** emails/edit: a template that does not parse is the model's 400, shown above the form with the line it names, the text as typed kept. */
export const saveMailTemplate: PageHandler = async (request) => {
  const action = field(request.form, 'action') ?? '';
  const vars = Object.fromEntries(PARTS.map((part) => [part, field(request.form, part) ?? '']));
  const outcome = await attempt(() => callAs(request, 'emails', 'edit', { action, vars }));
  if (!outcome.ok) return renderMailTemplate(request, 400, action, problemsNotice(outcome.messages), vars);
  redirectTo(request.ctx, hrefFor(EDIT, request.company, { action, done: 'saved' }));
};

/** emails/reset: the default comes back. */
export const resetMailTemplate: PageHandler = async (request) => {
  const action = field(request.form, 'action') ?? '';
  const outcome = await attempt(() => callAs(request, 'emails', 'reset', { action }));
  if (!outcome.ok) return renderMailTemplate(request, 400, action, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(EDIT, request.company, { action, done: 'reset' }));
};

/** A template's page; `top` is a notice above it, `given` what was typed (kept when a save is refused). */
export async function renderMailTemplate(request: AdminRequest, status: number, action: string, top?: SafeHtml, given?: Record<string, string>) {
  const template = action ? ((await callAs(request, 'emails', 'getByType', { action })) as Template | false) : false;
  if (!template) return sendHtml(request.ctx, 404, statusPage('No such template', 'There is no mail template by that name.', { href: hrefFor(LIST, request.company), label: 'Back to the templates' }));
  const preview = (await callAs(request, 'emails', 'preview', { action })) as Rendered;
  const value = (part: (typeof PARTS)[number]) => given?.[part] ?? template[part];
  const content = html`${top ?? ''}
${mailTabs(request, 'templates')}
<section class="panel" aria-labelledby="edit-title">
  <h2 id="edit-title">Edit ${template.action}</h2>
  <p class="hint">Sent to ${template.type === 'staff' ? 'staff' : 'clients'}. ${template.customized ? 'This is the company’s own version.' : 'This is the default.'} Tags: ${template.tags.map((tag, i) => html`${i ? ', ' : ''}<code>{${tag}}</code>`)}.</p>
  <form method="post" action="${EDIT}" class="stacked-form">
    ${formBasics(request)}
    <input type="hidden" name="action" value="${template.action}">
    <div class="field"><label for="template-subject">Subject</label><input type="text" id="template-subject" name="subject" value="${value('subject')}" maxlength="998" required></div>
    <div class="field"><label for="template-html">HTML body</label><textarea id="template-html" name="html" rows="10" class="mono">${value('html')}</textarea></div>
    <div class="field"><label for="template-text">Text body</label><textarea id="template-text" name="text" rows="10" class="mono">${value('text')}</textarea></div>
    <div><button type="submit">Save template</button></div>
  </form>
  ${
    template.customized
      ? html`<form method="post" action="${RESET}" class="inline-form">
    ${formBasics(request)}
    <input type="hidden" name="action" value="${template.action}">
    <button type="submit" class="secondary">Reset to the default</button>
  </form>`
      : ''
  }
</section>
${await attachmentsPanel(request, template)}
<section class="panel" aria-labelledby="preview-title">
  <h2 id="preview-title">Preview with sample values</h2>
  <p class="hint">The saved template, as a message made from it reads.</p>
  <dl class="preview">
    <dt>Subject</dt><dd id="preview-subject">${preview.subject}</dd>
    <dt>Text body</dt><dd><pre id="preview-text">${preview.text}</pre></dd>
    <dt>HTML body (source)</dt><dd><pre id="preview-html">${preview.html}</pre></dd>
  </dl>
</section>`;
  sendHtml(request.ctx, status, staffPage(request, 'mail', `Mail template ${template.action}`, content));
}
