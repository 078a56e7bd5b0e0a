import { SettingDeclaration } from '../../../core/kernel/extension-catalog';
import { html, SafeHtml } from '../../web/html';

type Declared = Readonly<Record<string, SettingDeclaration>>;

/**
 * The fields a manifest declares (an extension's settings, a module's server fields) as inputs:
 * plain ones filled in with what is stored, secret ones never (a password input that starts
 * empty; blank keeps what is stored, see withoutBlankSecrets), so a page never sends a secret back.
 */
export function declaredFieldInputs(
  declared: Declared,
  at: { id: (key: string) => string; name: (key: string) => string },
  values: Readonly<Record<string, string>>,
  secretsSet: readonly string[],
): SafeHtml {
  return html`${Object.entries(declared).map(([key, d]) => {
    const id = at.id(key);
    const isSet = secretsSet.includes(key);
    const hint = d.secret ? (isSet ? 'Stored encrypted. Leave blank to keep the current value.' : 'Stored encrypted; never shown again.') : '';
    return html`<div class="field">
    <label for="${id}">${d.label ?? key}${d.required ? '' : html` <span class="hint">(optional)</span>`}</label>
    <input type="${d.secret ? 'password' : 'text'}" id="${id}" name="${at.name(key)}" autocomplete="${d.secret ? 'new-password' : 'off'}"${d.secret ? '' : html` value="${values[key] ?? ''}"`}${d.required && !(d.secret && isSet) ? html` required` : ''}${hint ? html` aria-describedby="${id}-hint"` : ''}>
    ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}
  </div>`;
  })}`;
}

/** What a form of declared fields changes: a blank secret field means "keep what is stored" (the form never shows it), so it is left out. */
export function withoutBlankSecrets<T>(given: Readonly<Record<string, T>>, declared: Declared): Record<string, T> {
  return Object.fromEntries(Object.entries(given).filter(([key, value]) => !(declared[key]?.secret && value === '')));
}
