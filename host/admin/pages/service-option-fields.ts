import { AdminRequest, callAs } from '../admin-request';
import { html, SafeHtml } from '../../web/html';
import { pricingText } from './package-records';

interface OptionValue {
  readonly name: string;
  readonly value: string | null;
  readonly status: string;
  readonly min: number | null;
  readonly max: number | null;
  readonly step: number | null;
  readonly pricing: ReadonlyArray<Parameters<typeof pricingText>[0]>;
}

interface PackageOption {
  readonly id: number;
  readonly label: string;
  readonly type: string;
  readonly values: readonly OptionValue[];
}

interface OfferedOption {
  readonly option: PackageOption;
  /** The names of the packages that offer it (through their option groups). */
  readonly packages: string[];
}

interface SellablePackage {
  readonly id: number;
  readonly name: string;
  readonly status: string;
  readonly pricing: ReadonlyArray<{ id: number }>;
  readonly option_groups: readonly number[];
}

/**
 * The options the company's packages offer, each once with the packages that offer it, read
 * through the call path (packages/getAll, package_options/getByPackageId) for the add-service form.
 */
export async function offeredOptions(request: AdminRequest): Promise<OfferedOption[]> {
  const packages = ((await callAs(request, 'packages', 'getAll', {})) as SellablePackage[]).filter((p) => p.status !== 'inactive' && p.option_groups.length);
  const offered = new Map<number, OfferedOption>();
  for (const found of packages) {
    for (const option of (await callAs(request, 'package_options', 'getByPackageId', { package_id: found.id })) as PackageOption[]) {
      const entry = offered.get(option.id) ?? { option, packages: [] };
      entry.packages.push(found.name);
      offered.set(option.id, entry);
    }
  }
  return [...offered.values()];
}

/** The form's configoptions[<option_id>] the chosen pricing's package offers, blanks left out: what services/add takes. */
export async function chosenOptions(request: AdminRequest, pricingId: number): Promise<Record<string, string> | undefined> {
  const given = request.form.configoptions;
  if (!given || typeof given !== 'object') return undefined;
  const packages = (await callAs(request, 'packages', 'getAll', {})) as SellablePackage[];
  const chosen = packages.find((p) => p.pricing.some((r) => r.id === pricingId));
  if (!chosen) return undefined;
  const offered = new Set(((await callAs(request, 'package_options', 'getByPackageId', { package_id: chosen.id })) as PackageOption[]).map((o) => String(o.id)));
  const kept = Object.entries(given as Record<string, unknown>).filter(([id, value]) => offered.has(id) && typeof value === 'string' && value.trim() !== '');
  return kept.length ? Object.fromEntries(kept.map(([id, value]) => [id, (value as string).trim()])) : undefined;
}

/** A field per offered option, named configoptions[<option_id>]; only those of the package chosen are sent on (chosenOptions). */
export function optionFields(offered: readonly OfferedOption[]): SafeHtml {
  if (!offered.length) return html``;
  return html`<fieldset><legend>Package options</legend><p class="hint">Only the options of the package chosen above are taken; leave the others blank.</p>
${offered.map(({ option, packages }) => {
  const id = `configoption-${option.id}`;
  const name = `configoptions[${option.id}]`;
  const active = option.values.filter((v) => v.status !== 'inactive');
  const priced = (v: OptionValue) => `${v.name}${v.pricing.length ? ` (${v.pricing.map(pricingText).join('; ')})` : ''}`;
  const hint = html`<p class="hint" id="${id}-hint">Offered by ${packages.join(', ')}</p>`;
  if (['select', 'radio', 'checkbox'].includes(option.type))
    return html`<div class="field"><label for="${id}">${option.label}</label><select id="${id}" name="${name}" aria-describedby="${id}-hint"><option value="">None</option>${active.map(
      (v) => html`<option value="${v.value ?? ''}">${priced(v)}</option>`,
    )}</select>${hint}</div>`;
  const first = active[0];
  if (option.type === 'quantity')
    return html`<div class="field"><label for="${id}">${option.label}${first ? ` — ${priced(first)} each` : ''}</label><input type="number" id="${id}" name="${name}" aria-describedby="${id}-hint"${
      first?.min !== null && first?.min !== undefined ? html` min="${first.min}"` : ''
    }${first?.max !== null && first?.max !== undefined ? html` max="${first.max}"` : ''}${first?.step ? html` step="${first.step}"` : ''}>${hint}</div>`;
  return html`<div class="field"><label for="${id}">${option.label}</label><input type="${option.type === 'password' ? 'password' : 'text'}" id="${id}" name="${name}" aria-describedby="${id}-hint" autocomplete="off">${hint}</div>`;
})}
</fieldset>`;
}

/** The options a service took (services/getOptions), as "label: value name" texts, with the quantity when more than one. */
export async function serviceOptionTexts(request: AdminRequest, serviceId: number): Promise<string[]> {
  const taken = (await callAs(request, 'services', 'getOptions', { service_id: serviceId })) as Array<{
    option_label: string;
    option_value_name: string;
    value: string | null;
    qty: number;
    option_type: string;
  }>;
  return taken.map(
    (o) => `${o.option_label}: ${['text', 'textarea'].includes(o.option_type) ? (o.value ?? '') : o.option_type === 'password' ? '(hidden)' : o.option_value_name}${o.qty > 1 ? ` × ${o.qty}` : ''}`,
  );
}
