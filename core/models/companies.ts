import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { assertValid, is, RuleSet } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { any, bool, int, object, string } from '../kernel/parameter';
import { formatUtc } from '../kernel/timestamps';
import { TallyError } from '../kernel/tally-error';
import { seedCurrencies } from '../billing/starting-currencies';
import { seedDefaultClientGroup } from '../billing/default-group';
import { int as count, listOf, nothing, orFalse } from '../kernel/shape';
import { COMPANY, COMPANY_ADD, COMPANY_EDIT } from './companies.fields';
import { SETTING } from './clients.fields';
import { companyOf, invalidCompanyError, requireInstallation } from '../identity/tenancy';
import { SettingsStore } from '../settings-store';
import { removeEmptyCompany } from './companies/company-removal';
import { ordered, readOrder } from '../billing/ordering';
import { onlyValueKeys } from '../billing/owner-settings';
import { pageOffset } from '../billing/values';
import { knownSetting, levelSettings, setLevelSettings } from '../billing/catalogue-settings';
import { PAGE_SIZE } from '../kernel/paging';

const ORDER: Record<string, string> = { id: 'id', name: 'name', hostname: 'hostname', date_added: 'date_added' };

/**
 * The companies of the installation. Credentials, clients and invoices each belong to one. A company
 * credential sees and renames only its own company; listing every company and adding one are the
 * installation's (an installation credential, the CLI, the admin area).
 */
@model('companies')
export class Companies {
  constructor(
    private readonly ctx: CallContext,
    private readonly settings: SettingsStore,
  ) {}

  @callable({ description: 'Fetch a company; false when there is none.', verb: 'GET', params: [int('company_id')], returns: orFalse(COMPANY) })
  async get(companyId: number) {
    if (!this.ctx.installationWide && companyId !== this.ctx.companyId) return false;
    return (await this.ctx.db.selectFrom('companies').selectAll().where('id', '=', companyId).executeTakeFirst()) ?? false;
  }

  @callable({ description: 'Every company, by id (a company credential sees only its own).', verb: 'GET', returns: listOf(COMPANY) })
  async getAll() {
    return this.reachable().orderBy('id').execute();
  }

  @callable({
    description: 'One page (25) of the companies (a company credential sees only its own); order_by[field]=ASC|DESC over id, name, hostname, date_added.',
    verb: 'GET',
    params: [int('page', { default: 1 }), object('order_by', { default: { id: 'ASC' } })],
    returns: listOf(COMPANY),
  })
  async getList(page: number, orderBy: unknown) {
    return ordered(this.reachable(), readOrder(orderBy, ORDER), 'id').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
  }

  @callable({ description: 'How many companies getList pages through.', verb: 'GET', returns: count() })
  async getListCount() {
    const row = await this.reachable()
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  @callable({
    description: "The company served under a hostname; false when there is none (or it is not the caller's).",
    verb: 'GET',
    params: [string('hostname', { example: 'billing.example.com' })],
    returns: orFalse(COMPANY),
  })
  async getByHostname(hostname: string) {
    return (await this.reachable().where('hostname', '=', hostname).orderBy('id').executeTakeFirst()) ?? false;
  }

  @callable({
    description: 'One setting of a company ({key, value, encrypted, level}), its default when the company has not set it; false for a key it does not have.',
    verb: 'GET',
    params: [int('company_id'), string('key', { example: 'timezone' })],
    returns: orFalse(SETTING),
  })
  async getSetting(companyId: number, key: string) {
    if (!(await this.get(companyId))) return false;
    const all = [...(await levelSettings(this.ctx.db, companyId, this.ctx.systemKey, 'company')), ...(await levelSettings(this.ctx.db, companyId, this.ctx.systemKey, 'system'))];
    return all.find((s) => s.key === key) ?? false;
  }

  @callable({
    description:
      "A company's settings ({key, value, encrypted, level}, defaults included) and, unless ignore_inheritence is true, the system settings it inherits; [] for a company the caller does not reach.",
    verb: 'GET',
    params: [int('company_id'), bool('ignore_inheritence', { default: false })],
    returns: listOf(SETTING),
  })
  async getSettings(companyId: number, ignoreInheritence: boolean) {
    if (!(await this.get(companyId))) return [];
    const own = await levelSettings(this.ctx.db, companyId, this.ctx.systemKey, 'company');
    return ignoreInheritence ? own : [...own, ...(await levelSettings(this.ctx.db, companyId, this.ctx.systemKey, 'system'))];
  }

  @callable({
    description:
      'Set one company setting, checked as settings/set checks it. encrypted and inherit are accepted and unused: no company setting is secret, and a client group or client overrides the billing settings whatever inherit says.',
    verb: 'POST',
    params: [int('company_id'), string('key', { example: 'timezone' }), any('value', { example: 'UTC' }), any('encrypted', { default: null }), any('inherit', { default: null })],
    returns: nothing(),
  })
  async setSetting(companyId: number, key: string, value: unknown, _encrypted: unknown, _inherit: unknown) {
    await this.company(companyId);
    await setLevelSettings(this.ctx.db, this.settings, companyId, { [key]: value }, () => 'key');
    return null;
  }

  @callable({
    description: 'Set several company settings from settings[key]=value, all or none; value_keys (a list) limits which keys are set.',
    verb: 'POST',
    params: [int('company_id'), object('settings', { example: { timezone: 'UTC' } }), any('value_keys', { default: null })],
    returns: nothing(),
  })
  async setSettings(companyId: number, settings: Record<string, unknown>, valueKeys: unknown) {
    await this.company(companyId);
    await setLevelSettings(this.ctx.db, this.settings, companyId, onlyValueKeys(settings, valueKeys), (key) => `settings[${key}]`);
    return null;
  }

  @callable({
    description: "Remove a company's own value of a setting: it reads as its default again.",
    verb: 'DELETE',
    params: [int('company_id'), string('key', { example: 'timezone' })],
    returns: nothing(),
  })
  async unsetSetting(companyId: number, key: string) {
    await this.company(companyId);
    if (knownSetting(key).scope !== 'company') throw TallyError.invalid({ key: { valid: `${key} is a system setting, not a company one.` } });
    await this.settings.unset(companyId, key, this.ctx.db);
    return null;
  }

  @callable({
    description: 'Create a company from vars[name] and optional vars[hostname]. Returns its id.',
    verb: 'POST',
    params: [object('vars')],
    vars: COMPANY_ADD,
    returns: count({ description: 'The new company id.' }),
  })
  async add(vars: Record<string, unknown>) {
    requireInstallation(this.ctx);
    await assertValid(vars, RULES(false));
    const row = await this.ctx.db
      .insertInto('companies')
      .values({ name: String(vars.name).trim(), hostname: text(vars.hostname), date_added: formatUtc(new Date()) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await seedCurrencies(this.ctx.db, row.id);
    await seedDefaultClientGroup(this.ctx.db, row.id);
    return row.id;
  }

  @callable({
    description: 'Change vars[name] and/or vars[hostname] of a company. Returns the company.',
    verb: 'PUT',
    params: [int('company_id'), object('vars')],
    vars: COMPANY_EDIT,
    returns: COMPANY,
  })
  async edit(companyId: number, vars: Record<string, unknown>) {
    await this.company(companyId);
    await assertValid(vars, RULES(true));
    const changes: { name?: string; hostname?: string | null } = {};
    if (vars.name !== undefined) changes.name = String(vars.name).trim();
    if (vars.hostname !== undefined) changes.hostname = text(vars.hostname);
    if (Object.keys(changes).length) await this.ctx.db.updateTable('companies').set(changes).where('id', '=', companyId).execute();
    return this.get(companyId);
  }

  @callable({
    description:
      "Delete a company that holds nothing (no clients, invoices, packages, credentials, users, extensions, audit history ...; its own settings and seeded currencies go with it). Needs an installation credential; the caller's own company is refused.",
    verb: 'DELETE',
    params: [int('company_id')],
    returns: nothing(),
  })
  async delete(companyId: number) {
    requireInstallation(this.ctx);
    if (!(await this.get(companyId))) throw invalidCompanyError();
    if (companyId === this.ctx.companyId) throw TallyError.invalid({ company_id: { own: 'A credential cannot delete its own company.' } });
    await removeEmptyCompany(this.ctx.db, companyId);
    return null;
  }

  @callable({
    description:
      "The companies a staff member can work in, by id: every company of the installation for an active staff member (the admin area lets staff switch between them), as far as the caller reaches; [] for a staff member that does not exist, is inactive or is another company's.",
    verb: 'GET',
    params: [int('staff_id')],
    returns: listOf(COMPANY),
  })
  async getAllAvailable(staffId: number) {
    const staff = await this.ctx.db.selectFrom('staff').select(['company_id', 'status']).where('id', '=', staffId).executeTakeFirst();
    if (!staff || staff.status !== 'active' || (!this.ctx.installationWide && staff.company_id !== this.ctx.companyId)) return [];
    return this.getAll();
  }

  /** The companies the caller reaches: every one for the installation, else its own. */
  private reachable() {
    const query = this.ctx.db.selectFrom('companies').selectAll();
    return this.ctx.installationWide ? query : query.where('id', '=', this.ctx.companyId);
  }

  private async company(companyId: number) {
    if (!(await this.get(companyOf(this.ctx, companyId)))) throw invalidCompanyError();
  }
}

const RULES = (ifSet: boolean): RuleSet => ({
  name: {
    ifSet,
    rules: [
      { code: 'empty', message: 'Please enter a company name.', check: is.present, final: true },
      { code: 'length', message: 'The company name may be at most 255 characters long.', check: (v) => String(v).length <= 255 },
    ],
  },
  hostname: { ifSet: true, rules: [{ code: 'length', message: 'The hostname may be at most 255 characters long.', check: (v) => String(v).length <= 255 }] },
});

function text(value: unknown): string | null {
  return value === undefined || value === null || value === '' ? null : String(value).trim();
}

export { invalidCompanyError as invalidCompany } from '../identity/tenancy';
