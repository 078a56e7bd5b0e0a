import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { model } from '../kernel/model';
import { any, int, object, string } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { SettingsStore } from '../settings-store';
import { SETTINGS, SettingDefinition, SYSTEM_COMPANY } from '../settings-catalogue';
import { SETTING_VALUE, SETTING_VALUES } from './settings.fields';
import { SETTING } from './clients.fields';
import { listOf, nothing, orFalse } from '../kernel/shape';
import { onlyValueKeys } from '../billing/owner-settings';
import { knownSetting, levelSettings, setLevelSettings } from '../billing/catalogue-settings';
import { SettingsVersions } from './settings/versions';
import { companyOf, invalidCompanyError, requireInstallation } from '../identity/tenancy';

/**
 * Installation-wide and per-company settings (maintenance mode, timezone, invoice numbering, ...).
 * A company credential reads and changes its own company's settings and reads system ones; only
 * the installation (an installation credential, the CLI, the admin area) changes system settings.
 */
@model('settings', { facets: [SettingsVersions] })
export class Settings {
  constructor(
    private readonly ctx: CallContext,
    private readonly settings: SettingsStore,
  ) {}

  @callable({
    description: "Every setting the caller may see, with its value (defaults included), for the caller's company or company_id.",
    verb: 'GET',
    params: [int('company_id', { default: null })],
    returns: SETTING_VALUES,
  })
  async getList(companyId: number | null) {
    const company = await this.settings.read(companyOf(this.ctx, companyId), this.ctx.db);
    const system = await this.settings.read(SYSTEM_COMPANY, this.ctx.db);
    const result: Record<string, string> = {};
    for (const [key, definition] of Object.entries(SETTINGS)) {
      if (definition.secret) continue;
      result[key] = (definition.scope === 'system' ? system : company).get(key) ?? definition.default;
    }
    return result;
  }

  @callable({ description: "One setting's value.", verb: 'GET', params: [string('key', { example: 'timezone' }), int('company_id', { default: null })], returns: SETTING_VALUE })
  async get(key: string, companyId: number | null) {
    const definition = knownSetting(key);
    const values = await this.settings.read(this.scopeOf(definition, companyId), this.ctx.db);
    return values.get(key) ?? definition.default;
  }

  @callable({
    description:
      "Change a setting. System settings (maintenance_mode) apply to the installation; company settings (timezone, invoice_format, invoice_start) to the caller's company or company_id. Every process sees the change within about a second.",
    verb: 'PUT',
    params: [string('key', { example: 'timezone' }), string('value', { example: 'UTC' }), int('company_id', { default: null })],
    returns: SETTING_VALUE,
  })
  async set(key: string, value: string, companyId: number | null) {
    const definition = knownSetting(key);
    const scope = this.scopeOf(definition, companyId);
    if (scope === SYSTEM_COMPANY) requireInstallation(this.ctx);
    const problem = definition.check(value);
    if (problem) throw TallyError.invalid({ value: { valid: problem } });
    if (scope !== SYSTEM_COMPANY && !(await this.ctx.db.selectFrom('companies').select('id').where('id', '=', scope).executeTakeFirst())) throw invalidCompanyError();
    await this.settings.set(scope, key, value, this.ctx.db);
    return value;
  }

  // The reference's Settings model: the installation's (system) settings, as records.

  @callable({
    description: 'One system setting ({key, value, encrypted, level}); false for a key the system does not have.',
    verb: 'GET',
    params: [string('key', { example: 'maintenance_mode' })],
    returns: orFalse(SETTING),
  })
  async getSetting(key: string) {
    return (await levelSettings(this.ctx.db, this.ctx.companyId, this.ctx.systemKey, 'system')).find((s) => s.key === key) ?? false;
  }

  @callable({ description: 'The system settings ({key, value, encrypted, level}), defaults included; secret ones never.', verb: 'GET', returns: listOf(SETTING) })
  async getSettings() {
    return levelSettings(this.ctx.db, this.ctx.companyId, this.ctx.systemKey, 'system');
  }

  @callable({
    description: 'Set one system setting (an installation credential): checked as set checks it. encrypted and inherit are accepted and unused (no system setting the API shows is secret).',
    verb: 'POST',
    params: [string('key', { example: 'maintenance_mode' }), any('value', { example: 'false' }), any('encrypted', { default: null }), any('inherit', { default: null })],
    returns: nothing(),
  })
  async setSetting(key: string, value: unknown, _encrypted: unknown, _inherit: unknown) {
    requireInstallation(this.ctx);
    await setLevelSettings(this.ctx.db, this.settings, SYSTEM_COMPANY, { [key]: value }, () => 'key');
    return null;
  }

  @callable({
    description: 'Set several system settings from settings[key]=value (an installation credential), all or none; value_keys (a list) limits which keys are set.',
    verb: 'POST',
    params: [object('settings', { example: { maintenance_mode: 'false' } }), any('value_keys', { default: null })],
    returns: nothing(),
  })
  async setSettings(settings: Record<string, unknown>, valueKeys: unknown) {
    requireInstallation(this.ctx);
    await setLevelSettings(this.ctx.db, this.settings, SYSTEM_COMPANY, onlyValueKeys(settings, valueKeys), (key) => `settings[${key}]`);
    return null;
  }

  @callable({
    description: "Remove the system's own value of a setting (an installation credential): it reads as its default again.",
    verb: 'DELETE',
    params: [string('key', { example: 'maintenance_mode' })],
    returns: nothing(),
  })
  async unsetSetting(key: string) {
    requireInstallation(this.ctx);
    if (knownSetting(key).scope !== 'system') throw TallyError.invalid({ key: { valid: `${key} is a company setting, not a system one.` } });
    await this.settings.unset(SYSTEM_COMPANY, key, this.ctx.db);
    return null;
  }

  private scopeOf(definition: SettingDefinition, companyId: number | null): number {
    return definition.scope === 'system' ? SYSTEM_COMPANY : companyOf(this.ctx, companyId);
  }
}
