import { html, SafeHtml } from '../../web/html';

/** The details a client keeps for itself and its contacts (the contact fields the client scope lets through). */
export const DETAIL_FIELDS = [
  { name: 'first_name', label: 'First name', type: 'text', autocomplete: 'given-name', required: true },
  { name: 'last_name', label: 'Last name', type: 'text', autocomplete: 'family-name', required: true },
  { name: 'email', label: 'Email', type: 'email', autocomplete: 'email', required: true },
  { name: 'company', label: 'Company', type: 'text', autocomplete: 'organization', required: false },
  { name: 'title', label: 'Title', type: 'text', autocomplete: 'organization-title', required: false },
  { name: 'address1', label: 'Address', type: 'text', autocomplete: 'address-line1', required: false },
  { name: 'address2', label: 'Address (second line)', type: 'text', autocomplete: 'address-line2', required: false },
  { name: 'city', label: 'City', type: 'text', autocomplete: 'address-level2', required: false },
  { name: 'state', label: 'State or region (ISO code)', type: 'text', autocomplete: 'address-level1', required: false },
  { name: 'zip', label: 'Postal code', type: 'text', autocomplete: 'postal-code', required: false },
  { name: 'country', label: 'Country (two letters)', type: 'text', autocomplete: 'country', required: false },
] as const;

/** The fields of a form as vars for clients/edit, contacts/add or contacts/edit: only the detail fields, as typed. */
export function detailVars(form: Record<string, unknown>): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const { name } of DETAIL_FIELDS) if (typeof form[name] === 'string') vars[name] = (form[name] as string).trim();
  return vars;
}

/** The inputs of the detail fields, filled with a record's values; `prefix` keeps ids unique when a page has two forms. */
export function detailInputs(values: Record<string, unknown>, prefix: string, disabled = false): SafeHtml {
  return html`${DETAIL_FIELDS.map((f) => {
    const value = values[f.name];
    return html`<div class="field"><label for="${prefix}-${f.name}">${f.label}</label><input type="${f.type}" id="${prefix}-${f.name}" name="${f.name}" value="${typeof value === 'string' ? value : ''}" autocomplete="${f.autocomplete}"${f.required ? html` required` : ''}${disabled ? html` disabled` : ''}></div>`;
  })}`;
}
