import { Tx } from '../db/schema';
import { FieldErrors } from '../kernel/errors';
import { is } from '../kernel/input-rules';
import { optionsOfPackage, PresentedOption, pricingFor, TEXT_TYPES } from './option-catalogue';

/** The value a service takes for one option, as service_options keeps it. */
export interface OptionChoice {
  readonly option_id: number;
  readonly value_id: number;
  /** A text, textarea or password option's text; null for the others. */
  readonly value: string | null;
  readonly qty: number;
}

/** The pricing a service is billed at, whose term, period and currency its options must be priced in. */
export interface BilledAs {
  readonly packageId: number;
  readonly term: number;
  readonly period: string;
  readonly currency: string;
}

const TEXT_LIMIT = 65535;

/**
 * Reads services/add and services/edit `configoptions[<option_id>]=<value>`: each id must be an
 * option of the package (through its option groups; another company's or package's option is
 * unknown here), each value one the option offers (a select's, radio's or checkbox's value, a
 * quantity within its limits and step, a text) with a price for the service's term, period and
 * currency. Errors are keyed `configoptions[<option_id>]`. A checkbox left unchecked, a quantity of
 * 0 or an empty text takes nothing.
 */
export async function readConfigOptions(db: Tx, companyId: number, billed: BilledAs, raw: unknown): Promise<{ errors: FieldErrors; choices: OptionChoice[] }> {
  const errors: FieldErrors = {};
  const choices: OptionChoice[] = [];
  if (raw === '' || raw === null || raw === undefined || (Array.isArray(raw) && !raw.length)) return { errors, choices };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    errors.configoptions = { format: 'Send options as configoptions[<option_id>]=<value>.' };
    return { errors, choices };
  }
  const offered = new Map((await optionsOfPackage(db, companyId, billed.packageId)).map((o) => [String(o.id), o]));
  for (const [key, given] of Object.entries(raw as Record<string, unknown>)) {
    const field = `configoptions[${key}]`;
    const option = offered.get(key);
    if (!option) {
      errors[field] = { exists: "Invalid package option ID: it is not one of the package's options." };
      continue;
    }
    const read = readChoice(option, given, billed);
    if ('error' in read) errors[field] = read.error;
    else if (read.choice) choices.push(read.choice);
  }
  return { errors, choices };
}

type Read = { choice: OptionChoice | null } | { error: Record<string, string> };

function readChoice(option: PresentedOption, given: unknown, billed: BilledAs): Read {
  if (given !== null && typeof given === 'object') return { error: { format: 'An option takes one value.' } };
  const text = given === null || given === undefined ? '' : String(given);
  const active = option.values.filter((v) => v.status === 'active');
  const priced = (value: (typeof active)[number], qty: number, own: string | null): Read =>
    pricingFor(value, billed.term, billed.period, billed.currency)
      ? { choice: { option_id: option.id, value_id: value.id, value: own, qty } }
      : { error: { price: `${option.label}: ${value.name} has no price for ${billed.term} ${billed.period} in ${billed.currency}.` } };

  if (option.type === 'quantity') {
    const value = active[0];
    if (text === '' || text === '0') return { choice: null };
    if (!value || !is.integer(text)) return { error: { valid: 'The quantity must be a whole number.' } };
    const qty = Number(text);
    const min = value.min ?? 0;
    if (qty < min || (value.max !== null && qty > value.max) || (value.step && (qty - min) % value.step !== 0))
      return { error: { valid: `The quantity must be from ${min}${value.max !== null ? ` to ${value.max}` : ''}${value.step ? ` in steps of ${value.step}` : ''}.` } };
    return priced(value, qty, null);
  }
  if (TEXT_TYPES.includes(option.type)) {
    if (text === '') return { choice: null };
    if (text.length > TEXT_LIMIT || text.includes('\0')) return { error: { length: `The text may be ${TEXT_LIMIT} characters at most.` } };
    return active[0] ? priced(active[0], 1, text) : { error: { valid: 'The option offers no value.' } };
  }
  if (option.type === 'checkbox' && (text === '' || text === '0')) return { choice: null };
  const value = active.find((v) => (v.value ?? '') === text);
  if (!value) return { error: { valid: 'The value is not one this option offers.' } };
  return priced(value, 1, null);
}

/** Replaces a service's options with `choices` (configoptions replaces them all, as the reference's edit). */
export async function writeServiceOptions(db: Tx, serviceId: number, choices: readonly OptionChoice[]): Promise<void> {
  await db.deleteFrom('service_options').where('service_id', '=', serviceId).execute();
  if (choices.length)
    await db
      .insertInto('service_options')
      .values(choices.map((c) => ({ service_id: serviceId, ...c })))
      .execute();
}
