import { FieldErrors } from '../kernel/errors';
import { TallyError } from '../kernel/tally-error';
import { formatUtc, parseTimestamp } from '../kernel/timestamps';
import { AddressList } from '../kernel/address-list';
import { parsePatterns } from './scope';
import { truthOf } from '../kernel/truth-values';

/** The narrowing fields of a credential as stored (api_keys columns); only those given are set. */
export interface ScopeColumns {
  scopes?: string | null;
  read_only?: number;
  allow_ips?: string | null;
  expires_at?: string | null;
  notes?: string | null;
}

/**
 * Reads vars[scopes] (a list or a comma/space-separated text of `model/method` patterns),
 * vars[read_only], vars[allow_ips] (CIDR list), vars[expires_at] (a timestamp; in the company's
 * timezone when it has none) and vars[notes]. An empty list or text removes that narrowing.
 * Every problem is a 400 naming the field.
 */
export function scopeColumns(vars: Record<string, unknown>, timezone: string, now = Date.now()): ScopeColumns {
  const errors: FieldErrors = {};
  const columns: ScopeColumns = {};
  const given = (name: string) => vars[name] !== undefined;
  const attempt = (name: string, read: () => void) => {
    try {
      read();
    } catch (error) {
      errors[name] = { valid: (error as Error).message };
    }
  };
  if (given('scopes')) attempt('scopes', () => (columns.scopes = joined(parsePatterns(listText(vars.scopes)))));
  if (given('allow_ips')) attempt('allow_ips', () => (columns.allow_ips = joined([...AddressList.parse(listText(vars.allow_ips)).entries])));
  if (given('read_only')) attempt('read_only', () => (columns.read_only = flag(vars.read_only) ? 1 : 0));
  if (given('expires_at')) {
    attempt('expires_at', () => {
      const text = String(vars.expires_at);
      if (text === '') return void (columns.expires_at = null);
      const at = parseTimestamp(text, timezone);
      if (!at) throw new Error('Please give a timestamp such as 2030-01-31 00:00:00 UTC.');
      if (at.getTime() <= now) throw new Error('The expiry must be in the future.');
      columns.expires_at = formatUtc(at);
    });
  }
  if (given('notes')) {
    const notes = vars.notes === '' || vars.notes === null ? null : String(vars.notes);
    if (notes !== null && notes.length > 1000) errors.notes = { length: 'The notes may be at most 1000 characters long.' };
    columns.notes = notes;
  }
  if (Object.keys(errors).length) throw TallyError.invalid(errors);
  return columns;
}

/** `true`, `1`, `yes`, `on` (and the boolean) → true; `false`, `0`, `no`, `off`, `` → false. */
export function flag(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  const truth = truthOf(String(value).trim());
  if (truth !== undefined) return truth;
  throw new Error('Please give true or false.');
}

function listText(value: unknown): string {
  if (Array.isArray(value)) {
    if (value.some((v) => typeof v !== 'string')) throw new Error('Please give a list of text values.');
    return value.join('\n');
  }
  if (typeof value !== 'string') throw new Error('Please give a list or a comma-separated text.');
  return value;
}

const joined = (items: string[]) => (items.length ? items.join('\n') : null);
