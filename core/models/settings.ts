import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { model } from '../kernel/model';
import { int, string } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { SettingsStore } from '../settings-store';
import { SETTINGS, SettingDefinition, SYSTEM_COMPANY } from '../settings-catalogue';
import { SETTING_VALUE, SETTING_VALUES } from './settings.fields';
import { companyOf, invalidCompanyError, requireInstallation } from '../trust/tenancy';

/**
 * Installation-wide and per-company settings (maintenance mode, timezone, invoice numbering, ...).
 * A company credential reads and changes its own company's settings and reads system ones; only
 * the installation (an installation credential, the CLI, the admin area) changes system settings.
 */
@model('settings')
export class Settings {
  constructor(
    private readonly ctx: CallContext,
    private readonly settings: SettingsStore,
  ) {}

  @callable({ description: 'Every setting the caller may see, with its value (defaults included), for the caller\'s company or company_id.', verb: 'GET', params: [int('company_id', { default: null })], returns: SETTING_VALUES })
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

  @callable({ description: 'One setting\'s value.', verb: 'GET', params: [string('key', { example: 'timezone' }), int('company_id', { default: null })], returns: SETTING_VALUE })
  async get(key: string, companyId: number | null) {
    const definition = known(key);
    const values = await this.settings.read(this.scopeOf(definition, companyId), this.ctx.db);
    return values.get(key) ?? definition.default;
  }

  @callable({
    description: 'Change a setting. System settings (maintenance_mode) apply to the installation; company settings (timezone, invoice_format, invoice_start) to the caller\'s company or company_id. Every process sees the change within about a second.',
    verb: 'PUT',
    params: [string('key', { example: 'timezone' }), string('value', { example: 'UTC' }), int('company_id', { default: null })],
    returns: SETTING_VALUE,
  })
  async set(key: string, value: string, companyId: number | null) {
    const definition = known(key);
    const scope = this.scopeOf(definition, companyId);
    if (scope === SYSTEM_COMPANY) requireInstallation(this.ctx);
    const problem = definition.check(value);
    if (problem) throw TallyError.invalid({ value: { valid: problem } });
    if (scope !== SYSTEM_COMPANY && !(await this.ctx.db.selectFrom('companies').select('id').where('id', '=', scope).executeTakeFirst())) throw invalidCompanyError();
    await this.settings.set(scope, key, value, this.ctx.db);
    return value;
  }

  private scopeOf(definition: SettingDefinition, companyId: number | null): number {
    return definition.scope === 'system' ? SYSTEM_COMPANY : companyOf(this.ctx, companyId);
  }
}

function known(key: string): SettingDefinition {
  const definition = Object.prototype.hasOwnProperty.call(SETTINGS, key) ? SETTINGS[key] : undefined;
  if (!definition || definition.secret) {
    const names = Object.keys(SETTINGS).filter((k) => !SETTINGS[k].secret).join(', ');
    throw TallyError.invalid({ key: { valid: `Unknown setting. Known settings: ${names}.` } });
  }
  return definition;
}
