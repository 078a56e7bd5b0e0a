import { Tx } from '../db/schema';
import { TallyError } from '../kernel/tally-error';
import { SettingsStore } from '../settings-store';
import { SETTINGS, SettingDefinition, SYSTEM_COMPANY } from '../settings-catalogue';
import { effectiveSettings, SettingRecord } from './owner-settings';

/** A key of the settings catalogue that the API may show; an unknown or secret key is a 400 naming `field`. */
export function knownSetting(key: string, field = 'key'): SettingDefinition {
  const definition = Object.prototype.hasOwnProperty.call(SETTINGS, key) ? SETTINGS[key] : undefined;
  if (!definition || definition.secret) {
    const names = Object.keys(SETTINGS)
      .filter((k) => !SETTINGS[k].secret)
      .join(', ');
    throw TallyError.invalid({ [field]: { valid: `Unknown setting. Known settings: ${names}.` } });
  }
  return definition;
}

/** The catalogue's settings of one level as records ({key, value, encrypted, level}), defaults included. */
export async function levelSettings(db: Tx, companyId: number, systemKey: string, level: 'company' | 'system'): Promise<SettingRecord[]> {
  return [...(await effectiveSettings(db, companyId, systemKey, [])).values()].filter((s) => s.level === level);
}

/**
 * Sets catalogue settings of one level (system: company 0), each value checked as `settings/set`
 * checks it, all or none; a key of the other level is refused, so a company call never reaches the
 * installation's settings. `field` names the parameter an error is reported under.
 */
export async function setLevelSettings(db: Tx, store: SettingsStore, scope: number, values: Record<string, unknown>, field: (key: string) => string): Promise<void> {
  const level = scope === SYSTEM_COMPANY ? 'system' : 'company';
  const checked: Array<[string, string]> = [];
  const errors: Record<string, Record<string, string>> = {};
  for (const [key, raw] of Object.entries(values)) {
    const value = raw === null || raw === undefined ? '' : typeof raw === 'object' ? null : String(raw);
    const definition = Object.prototype.hasOwnProperty.call(SETTINGS, key) ? SETTINGS[key] : undefined;
    if (!definition || definition.secret) errors[field(key)] = { valid: `Unknown setting. Known ${level} settings: ${levelKeys(level)}.` };
    else if (definition.scope !== level) errors[field(key)] = { valid: `${key} is a ${definition.scope} setting, not a ${level} one.` };
    else if (value === null) errors[field(key)] = { format: `${key}: Please give one value.` };
    else {
      const problem = definition.check(value);
      if (problem) errors[field(key)] = { format: `${key}: ${problem}` };
      else checked.push([key, value]);
    }
  }
  if (Object.keys(errors).length) throw TallyError.invalid(errors);
  for (const [key, value] of checked) await store.set(scope, key, value, db);
}

function levelKeys(level: 'company' | 'system'): string {
  return Object.keys(SETTINGS)
    .filter((k) => !SETTINGS[k].secret && SETTINGS[k].scope === level)
    .join(', ');
}
