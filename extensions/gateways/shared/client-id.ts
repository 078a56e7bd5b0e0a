import { TallyError } from '../../../host/extensions/kit';

/**
 * vars[client_id] as the whole number the gateway's tables keep. Checked before anything is
 * written: `Number()` of a missing or malformed id is NaN, which the NOT NULL integer column
 * refused with a database error (a 500) instead of a 400 naming the parameter.
 */
export function clientIdOf(vars: Record<string, unknown>): number {
  const value = vars.client_id;
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d{1,10}\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > 2147483647) throw TallyError.invalid({ client_id: { format: 'Please give the client as vars[client_id], a whole number from 1 to 2147483647.' } });
  return id;
}
