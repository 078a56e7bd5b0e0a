import { html } from '../../web/html';
import { notice, redirectTo, sendHtml } from '../../web/page-response';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { field } from '../../web/form-body';
import { call, ClientRequest } from '../client-request';
import { clientPage, csrfField, wordsOf } from '../client-layout';
import { isClientArea } from '../../../core/identity/client-areas';
import { detailInputs, detailVars } from './contact-form';
import { notFound } from './not-found';

interface ContactRecord {
  readonly id: number;
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
  readonly contact_type: string;
  readonly contact_type_name: string;
  readonly user_id: number | null;
}

/** GET /client/contacts: the client's contacts and a form to add one. */
export async function showContacts(request: ClientRequest, problems?: string[], typed?: Record<string, unknown>): Promise<void> {
  const contacts = (await call(request, 'contacts', 'getAll', { client_id: request.session.clientId })) as ContactRecord[];
  const saved = request.ctx.query.saved !== undefined && !problems;
  const words = wordsOf(request.company);
  const { t } = words;
  sendHtml(
    request.ctx,
    problems ? 400 : 200,
    clientPage(
      request,
      'contacts',
      t('contacts.title'),
      html`${saved ? notice('ok', t('contacts.saved')) : ''}
<div class="table-wrap"><table>
<caption>${t('contacts.caption')}</caption>
<thead><tr><th scope="col">${t('contacts.name')}</th><th scope="col">${t('contacts.email')}</th><th scope="col">${t('contacts.type')}</th><th scope="col">${t('contacts.signsIn')}</th></tr></thead>
<tbody>${contacts.map(
        (c) =>
          html`<tr><td>${c.contact_type === 'primary' ? `${c.first_name} ${c.last_name}` : html`<a href="/client/contacts/edit?id=${c.id}">${c.first_name} ${c.last_name}</a>`}</td><td>${c.email}</td><td>${c.contact_type === 'billing' || c.contact_type === 'other' ? t(`contacts.type.${c.contact_type}`) : c.contact_type_name}</td><td>${t(c.user_id === null ? 'contacts.no' : 'contacts.yes')}</td></tr>`,
      )}</tbody>
</table></div>
<section aria-labelledby="add-title">
<h2 id="add-title">${t('contacts.addTitle')}</h2>
${problems ? problemsNotice(problems) : ''}
<form method="post" action="/client/contacts/add" class="stacked panel">
${csrfField(request)}
<div class="field"><label for="add-contact_type">${t('contacts.type')}</label><select id="add-contact_type" name="contact_type"><option value="billing">${t('contacts.type.billing')}</option><option value="other">${t('contacts.type.other')}</option></select></div>
${detailInputs(words, typed ?? {}, 'add')}
<div><button type="submit">${t('contacts.add')}</button></div>
</form>
</section>`,
    ),
  );
}

/** POST /client/contacts/add */
export async function addContact(request: ClientRequest): Promise<void> {
  const vars = { ...detailVars(request.form), client_id: request.session.clientId, contact_type: field(request.form, 'contact_type') || 'billing' };
  const outcome = await attempt(() => call(request, 'contacts', 'add', { vars }));
  if (!outcome.ok) return showContacts(request, outcome.messages, vars);
  redirectTo(request.ctx, '/client/contacts?saved=1');
}

/** GET /client/contacts/edit?id=N: a contact's details and, for the client itself, what the contact may use when it signs in. */
export async function showContact(request: ClientRequest, problems?: string[], typed?: Record<string, unknown>): Promise<void> {
  const id = String(request.ctx.query.id ?? request.form.contact_id ?? '');
  if (!/^\d{1,15}$/.test(id)) return notFound(request);
  const contact = (await call(request, 'contacts', 'get', { contact_id: Number(id) })) as ContactRecord | false;
  if (!contact || contact.contact_type === 'primary') return notFound(request);
  const own = request.session.contactId === null;
  const words = wordsOf(request.company);
  const { t } = words;
  let permissions = html``;
  if (own) {
    const options = (await call(request, 'contacts', 'getPermissionOptions', { company_id: request.session.companyId })) as Record<string, string>;
    const granted = new Set(((await call(request, 'contacts', 'getPermissions', { contact_id: contact.id })) as Array<{ area: string }>).map((p) => p.area));
    // An area the client area knows is named in the page's language; any other as the model names it.
    const labelOf = (area: string, label: string) => (isClientArea(area) ? t(`permission.${area}`) : label);
    permissions = html`<fieldset><legend>${t('contacts.permissions')}</legend>
${Object.entries(options).map(([area, label]) => html`<div class="field"><input type="checkbox" id="perm-${area}" name="areas[]" value="${area}"${granted.has(area) ? html` checked` : ''}> <label for="perm-${area}">${labelOf(area, label)}</label></div>`)}
</fieldset>`;
  }
  sendHtml(
    request.ctx,
    problems ? 400 : 200,
    clientPage(
      request,
      'contacts',
      t('contacts.contactTitle', { name: `${contact.first_name} ${contact.last_name}` }),
      html`${problems ? problemsNotice(problems) : ''}
<form method="post" action="/client/contacts/edit" class="stacked panel">
${csrfField(request)}
<input type="hidden" name="contact_id" value="${contact.id}">
${detailInputs(words, typed ?? (contact as unknown as Record<string, unknown>), 'contact')}
${permissions}
<div><button type="submit">${t('contacts.save')}</button></div>
</form>
<p><a href="/client/contacts">${t('contacts.all')}</a></p>`,
    ),
  );
}

/** POST /client/contacts/edit: contact_id, the detail fields, areas[] (the client itself only). */
export async function editContact(request: ClientRequest): Promise<void> {
  const id = field(request.form, 'contact_id');
  if (!/^\d{1,15}$/.test(id)) return notFound(request);
  const vars = detailVars(request.form);
  const own = request.session.contactId === null;
  const areas = own ? listOf(request.form.areas) : [];
  // Checked before anything is saved, so a forged area cannot leave the details saved and the permissions not.
  if (own) {
    const options = (await call(request, 'contacts', 'getPermissionOptions', { company_id: request.session.companyId })) as Record<string, string>;
    if (areas.some((area) => typeof area !== 'string' || !Object.prototype.hasOwnProperty.call(options, area)))
      return showContact(request, [wordsOf(request.company).t('contacts.choosePermissions')], vars);
  }
  const outcome = await attempt(async () => {
    await call(request, 'contacts', 'edit', { contact_id: Number(id), vars });
    if (own) await call(request, 'contacts', 'setPermissions', { contact_id: Number(id), vars: areas.map((area) => ({ area })) });
  });
  if (!outcome.ok) return showContact(request, outcome.messages, vars);
  redirectTo(request.ctx, '/client/contacts?saved=1');
}

/** A form field given once, several times (`areas[]`) or not at all, as a list. */
function listOf(value: unknown): unknown[] {
  if (value === undefined || value === '') return [];
  if (Array.isArray(value)) return value;
  return value !== null && typeof value === 'object' ? Object.values(value) : [value];
}
