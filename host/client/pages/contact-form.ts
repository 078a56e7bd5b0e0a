import { html, SafeHtml } from '../../web/html';
import { ClientWords } from '../language/client-words';

/** The details a client keeps for itself and its contacts (the contact fields the client scope lets through). */
export const DETAIL_FIELDS = [
  { name: 'first_name', type: 'text', autocomplete: 'given-name', required: true },
  { name: 'last_name', type: 'text', autocomplete: 'family-name', required: true },
  { name: 'email', type: 'email', autocomplete: 'email', required: true },
  { name: 'company', type: 'text', autocomplete: 'organization', required: false },
  { name: 'title', type: 'text', autocomplete: 'organization-title', required: false },
  { name: 'address1', type: 'text', autocomplete: 'address-line1', required: false },
  { name: 'address2', type: 'text', autocomplete: 'address-line2', required: false },
  { name: 'city', type: 'text', autocomplete: 'address-level2', required: false },
  { name: 'state', type: 'text', autocomplete: 'address-level1', required: false },
  { name: 'zip', type: 'text', autocomplete: 'postal-code', required: false },
  { name: 'country', type: 'text', autocomplete: 'country', required: false },
] as const;

/** The fields of a form as vars for clients/edit, contacts/add or contacts/edit: only the detail fields, as typed. */
export function detailVars(form: Record<string, unknown>): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const { name } of DETAIL_FIELDS) if (typeof form[name] === 'string') vars[name] = (form[name] as string).trim();
  return vars;
}

/** The inputs of the detail fields, filled with a record's values; `prefix` keeps ids unique when a page has two forms. */
export function detailInputs(words: ClientWords, values: Record<string, unknown>, prefix: string, disabled = false): SafeHtml {
  return html`${DETAIL_FIELDS.map((f) => {
    const value = values[f.name];
    return html`<div class="field"><label for="${prefix}-${f.name}">${words.t(`field.${f.name}`)}</label><input type="${f.type}" id="${prefix}-${f.name}" name="${f.name}" value="${typeof value === 'string' ? value : ''}" autocomplete="${f.autocomplete}"${f.required ? html` required` : ''}${disabled ? html` disabled` : ''}></div>`;
  })}`;
}
