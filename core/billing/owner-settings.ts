import { Tx } from '../db/schema';
import { Rule, RuleSet } from '../kernel/input-rules';
import { systemDecrypt, systemEncrypt } from '../kernel/system-cipher';
import { SETTINGS, SYSTEM_COMPANY } from '../settings-catalogue';
import { truthy } from './values';

/** Who may override settings below the company: a client, or a client group (all its clients). */
export type Owner = 'client' | 'client_group';

export interface SettingRecord {
  key: string;
  value: string;
  encrypted: boolean;
  /** Where the value comes from: client, client_group, company or system. */
  level: string;
}

/** A setting key: letters, digits, `_`, `.` and `-`, at most 128 characters (the column's size). */
export const settingKeyRule: Rule = {
  code: 'format',
  message: 'A setting key is 1 to 128 letters, digits, _ . or -.',
  check: (v) => typeof v === 'string' && /^[A-Za-z0-9_.-]{1,128}$/.test(v),
};
export const settingKeyRules: RuleSet = { key: [settingKeyRule] };

/**
 * Values of the settings a client group or client may override (the billing settings) are checked
 * as the company's are: a billing run never meets a value it cannot read. `field` names the
 * parameter an error is reported under.
 */
export function overrideValueRules(values: Record<string, unknown>, field: (key: string) => string): RuleSet {
  const checked = Object.entries(values).filter(([key]) => Object.prototype.hasOwnProperty.call(SETTINGS, key) && SETTINGS[key].overridable);
  return Object.fromEntries(
    checked.map(([key, value]) => {
      const problem = SETTINGS[key].check(value === null || value === undefined ? '' : String(value));
      return [field(key), [{ code: 'format', message: `${key}: ${problem}`, check: () => problem === null }]];
    }),
  );
}

/** The settings an owner sets itself (decrypted), by key. */
export async function ownSettings(db: Tx, owner: Owner, ownerId: number, systemKey: string): Promise<Map<string, SettingRecord>> {
  const rows = await db.selectFrom('owner_settings').select(['key', 'value', 'encrypted']).where('owner', '=', owner).where('owner_id', '=', ownerId).orderBy('key').execute();
  return new Map(rows.map((r) => [r.key, { key: r.key, value: r.encrypted ? systemDecrypt(r.value, systemKey) : r.value, encrypted: Boolean(r.encrypted), level: owner }]));
}

/**
 * The effective settings, as the reference inherits them: client > client group > company >
 * system (the left one wins). Company and system values come from the settings catalogue (secret
 * ones are never included) with their defaults.
 */
export async function effectiveSettings(db: Tx, companyId: number, systemKey: string, chain: ReadonlyArray<[Owner, number | null]>): Promise<Map<string, SettingRecord>> {
  const rows = await db.selectFrom('settings').select(['company_id', 'key', 'value']).where('company_id', 'in', [SYSTEM_COMPANY, companyId]).execute();
  const result = new Map<string, SettingRecord>();
  for (const [key, definition] of Object.entries(SETTINGS)) {
    if (definition.secret) continue;
    const scopeId = definition.scope === 'system' ? SYSTEM_COMPANY : companyId;
    const row = rows.find((r) => r.company_id === scopeId && r.key === key);
    result.set(key, { key, value: row?.value ?? definition.default, encrypted: false, level: definition.scope });
  }
  for (const [owner, ownerId] of [...chain].reverse()) {
    if (ownerId === null) continue;
    for (const [key, record] of await ownSettings(db, owner, ownerId, systemKey)) result.set(key, record);
  }
  return result;
}

/** A key → value map, as `get(..., get_settings)` and `getSettings` answer. */
export function valuesOf(settings: Map<string, SettingRecord>): Record<string, string> {
  return Object.fromEntries([...settings.values()].map((s) => [s.key, s.value]));
}

export async function setOwnSetting(db: Tx, owner: Owner, ownerId: number, key: string, value: unknown, encrypted: unknown, systemKey: string): Promise<void> {
  const encrypt = encrypted !== null && encrypted !== undefined && truthy(encrypted);
  const text = value === null || value === undefined ? '' : String(value);
  const stored = encrypt ? systemEncrypt(text, systemKey) : text;
  await db
    .insertInto('owner_settings')
    .values({ owner, owner_id: ownerId, key, value: stored, encrypted: encrypt ? 1 : 0 })
    .onConflict((oc) => oc.columns(['owner', 'owner_id', 'key']).doUpdateSet({ value: stored, encrypted: encrypt ? 1 : 0 }))
    .execute();
}

/** `setSettings($id, $vars, $value_keys = null)`: every key of vars, or only those value_keys names. */
export function onlyValueKeys(vars: Record<string, unknown>, valueKeys: unknown): Record<string, unknown> {
  const only = Array.isArray(valueKeys) ? valueKeys.map(String) : valueKeys && typeof valueKeys === 'object' ? Object.values(valueKeys).map(String) : null;
  return only ? Object.fromEntries(Object.entries(vars).filter(([key]) => only.includes(key))) : vars;
}

export async function setOwnSettings(db: Tx, owner: Owner, ownerId: number, vars: Record<string, unknown>, valueKeys: unknown, systemKey: string): Promise<void> {
  for (const [key, value] of Object.entries(onlyValueKeys(vars, valueKeys))) await setOwnSetting(db, owner, ownerId, key, value, null, systemKey);
}

export async function unsetOwnSettings(db: Tx, owner: Owner, ownerId: number, key?: string): Promise<void> {
  let query = db.deleteFrom('owner_settings').where('owner', '=', owner).where('owner_id', '=', ownerId);
  if (key !== undefined) query = query.where('key', '=', key);
  await query.execute();
}

/** Keys of setSettings vars checked like setSetting's key; `field` names the parameter an error is reported under. */
export function settingKeysRules(vars: Record<string, unknown>, field: (key: string) => string = (key) => `vars[${key}]`): RuleSet {
  return Object.fromEntries(Object.keys(vars).map((key) => [field(key), [{ ...settingKeyRule, check: () => settingKeyRule.check(key, vars) }]]));
}

/** Keys and billing values of settings a client or group sets, checked as setSettings checks them. */
export function ownSettingsRules(values: Record<string, unknown>, field: (key: string) => string): RuleSet {
  return { ...settingKeysRules(values, field), ...overrideValueRules(values, field) };
}
