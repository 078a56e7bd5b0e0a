import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { mayChange, viewOnlyNote } from '../area-gate';
import { dataTable } from '../components/data-table';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice, redirectTo, sendHtml, staffPage } from '../layout';
import { statusPage } from './status-page';
import { mailTabs } from './mail-tabs';

/** emails/getAllSignatures and getSignature as the pages show them: the reference's fields. */
interface Signature {
  readonly id: number;
  readonly name: string;
  readonly text: string;
  readonly html: string;
}
type Typed = { name: string; text: string; html: string };

const LIST = '/admin/mail/signatures';
const EDIT = '/admin/mail/signatures/edit';
export const SIGNATURE_PATHS = { list: LIST, add: '/admin/mail/signatures/add', edit: EDIT, delete: '/admin/mail/signatures/delete' } as const;
const DONE: Record<string, string> = { added: 'The signature has been added.', saved: 'The signature has been saved.', deleted: 'The signature has been deleted.' };

const typed = (request: AdminRequest): Typed => ({ name: field(request.form, 'name'), text: rawField(request, 'text'), html: rawField(request, 'html') });

/** A body as typed: its leading "-- " matters, so it is not trimmed; a textarea's CRLF line breaks are stored as LF, as the API's are. */
function rawField(request: AdminRequest, name: string): string {
  const value = request.form[name];
  return typeof value === 'string' ? value.replace(/\r\n?/g, '\n') : '';
}

/** Mail → Signatures: the company's signatures, each editable and deletable, and a form to add one. */
export const showMailSignatures: PageHandler = async (request) => {
  const done = DONE[String(request.ctx.query.done ?? '')];
  await renderList(request, 200, done ? notice('ok', done) : undefined);
};

/** emails/addSignature; a refusal is shown above the form with what was typed kept. */
export const addMailSignature: PageHandler = async (request) => {
  const vars = typed(request);
  const outcome = await attempt(() => callAs(request, 'emails', 'addSignature', { vars }));
  if (!outcome.ok) return renderList(request, 400, problemsNotice(outcome.messages), vars);
  redirectTo(request.ctx, hrefFor(LIST, request.company, { done: 'added' }));
};

/** One signature's form. */
export const showMailSignature: PageHandler = async (request) => renderEdit(request, 200, String(request.ctx.query.email_signature_id ?? ''));

/** emails/editSignature. */
export const saveMailSignature: PageHandler = async (request) => {
  const id = field(request.form, 'email_signature_id');
  const vars = typed(request);
  const outcome = await attempt(() => callAs(request, 'emails', 'editSignature', { email_signature_id: id, vars }));
  if (!outcome.ok) return renderEdit(request, 400, id, problemsNotice(outcome.messages), vars);
  redirectTo(request.ctx, hrefFor(LIST, request.company, { done: 'saved' }));
};

/** emails/deleteSignature: one an email still uses is refused, with the model's reason. */
export const deleteMailSignature: PageHandler = async (request) => {
  const outcome = await attempt(() => callAs(request, 'emails', 'deleteSignature', { email_signature_id: field(request.form, 'email_signature_id') }));
  if (!outcome.ok) return renderList(request, 400, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(LIST, request.company, { done: 'deleted' }));
};

function signatureFields(values: Typed, prefix: string): SafeHtml {
  return html`<div class="field"><label for="${prefix}-name">Name</label><input type="text" id="${prefix}-name" name="name" value="${values.name}" maxlength="255" required></div>
    <div class="field"><label for="${prefix}-text">Text</label><textarea id="${prefix}-text" name="text" rows="4" class="mono" required>${values.text}</textarea></div>
    <div class="field"><label for="${prefix}-html">HTML</label><textarea id="${prefix}-html" name="html" rows="4" class="mono">${values.html}</textarea></div>`;
}

async function renderList(request: AdminRequest, status: number, top?: SafeHtml, given?: Typed) {
  const signatures = (await callAs(request, 'emails', 'getAllSignatures', { company_id: request.company.id })) as Signature[];
  const may = mayChange(request, 'settings');
  const content = html`${top ?? ''}
${mailTabs(request, 'signatures')}
<section class="panel" aria-labelledby="signatures-title">
  <h2 id="signatures-title">Signatures</h2>
  <p class="hint">A signature is added to the end of every message of the templates that name it (the text one to the text body, the HTML one to the HTML body).</p>
  ${viewOnlyNote(request, 'settings')}
  ${dataTable(
    `Email signatures of ${request.company.name}`,
    [{ label: 'Name' }, { label: 'Text' }, { label: 'Action' }],
    signatures.map((s) => [
      may ? html`<a href="${hrefFor(EDIT, request.company, { email_signature_id: String(s.id) })}">${s.name}</a>` : s.name,
      html`<pre class="mono">${s.text.slice(0, 300)}</pre>`,
      may
        ? html`<form method="post" action="${SIGNATURE_PATHS.delete}" class="inline-form">${formBasics(request)}<input type="hidden" name="email_signature_id" value="${s.id}"><button type="submit" class="secondary" aria-label="Delete signature ${s.name}">Delete</button></form>`
        : '',
    ]),
    'The company has no signatures.',
  )}
</section>
${
  may
    ? html`<section class="panel" aria-labelledby="add-signature-title">
  <h2 id="add-signature-title">Add a signature</h2>
  <form method="post" action="${SIGNATURE_PATHS.add}" class="stacked-form">
    ${formBasics(request)}
    ${signatureFields(given ?? { name: '', text: '', html: '' }, 'new-signature')}
    <div><button type="submit">Add signature</button></div>
  </form>
</section>`
    : ''
}`;
  sendHtml(request.ctx, status, staffPage(request, 'mail', 'Email signatures', content));
}

async function renderEdit(request: AdminRequest, status: number, id: string, top?: SafeHtml, given?: Typed) {
  const signature = /^[1-9]\d{0,14}$/.test(id) ? ((await callAs(request, 'emails', 'getSignature', { email_signature_id: id })) as Signature | false) : false;
  if (!signature)
    return sendHtml(request.ctx, 404, statusPage('No such signature', 'The company has no signature with that id.', { href: hrefFor(LIST, request.company), label: 'Back to the signatures' }));
  const content = html`${top ?? ''}
${mailTabs(request, 'signatures')}
<section class="panel" aria-labelledby="edit-signature-title">
  <h2 id="edit-signature-title">Edit signature ${signature.name}</h2>
  ${viewOnlyNote(request, 'settings')}
  <form method="post" action="${EDIT}" class="stacked-form">
    ${formBasics(request)}
    <input type="hidden" name="email_signature_id" value="${signature.id}">
    ${signatureFields(given ?? signature, 'signature')}
    ${mayChange(request, 'settings') ? html`<div><button type="submit">Save signature</button></div>` : ''}
  </form>
  <p><a href="${hrefFor(LIST, request.company)}">Back to the signatures</a></p>
</section>`;
  sendHtml(request.ctx, status, staffPage(request, 'mail', `Email signature ${signature.name}`, content));
}
