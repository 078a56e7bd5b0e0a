import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { assertValid, is, RuleSet } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { int, object } from '../kernel/parameter';
import { formatUtc } from '../kernel/timestamps';
import { seedCurrencies } from './currencies';
import { int as count, listOf, orFalse } from '../kernel/shape';
import { COMPANY, COMPANY_ADD, COMPANY_EDIT } from './companies.fields';
import { companyOf, invalidCompanyError, requireInstallation } from '../trust/tenancy';

/**
 * The companies of the installation. Credentials, clients and invoices each belong to one. A company
 * credential sees and renames only its own company; listing every company and adding one are the
 * installation's (an installation credential, the CLI, the admin area).
 */
@model('companies')
export class Companies {
  constructor(private readonly ctx: CallContext) {}

  @callable({ description: 'Fetch a company; false when there is none.', verb: 'GET', params: [int('company_id')], returns: orFalse(COMPANY) })
  async get(companyId: number) {
    if (!this.ctx.installationWide && companyId !== this.ctx.companyId) return false;
    return (await this.ctx.db.selectFrom('companies').selectAll().where('id', '=', companyId).executeTakeFirst()) ?? false;
  }

  @callable({ description: 'Every company, by id (a company credential sees only its own).', verb: 'GET', returns: listOf(COMPANY) })
  async getList() {
    const query = this.ctx.db.selectFrom('companies').selectAll();
    return (this.ctx.installationWide ? query : query.where('id', '=', this.ctx.companyId)).orderBy('id').execute();
  }

  @callable({ description: 'Create a company from vars[name] and optional vars[hostname]. Returns its id.', verb: 'POST', params: [object('vars')], vars: COMPANY_ADD, returns: count({ description: 'The new company id.' }) })
  async add(vars: Record<string, unknown>) {
    requireInstallation(this.ctx);
    await assertValid(vars, RULES(false));
    const row = await this.ctx.db
      .insertInto('companies')
      .values({ name: String(vars.name).trim(), hostname: text(vars.hostname), date_added: formatUtc(new Date()) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await seedCurrencies(this.ctx.db, row.id);
    return row.id;
  }

  @callable({ description: 'Change vars[name] and/or vars[hostname] of a company. Returns the company.', verb: 'PUT', params: [int('company_id'), object('vars')], vars: COMPANY_EDIT, returns: COMPANY })
  async edit(companyId: number, vars: Record<string, unknown>) {
    if (!(await this.get(companyOf(this.ctx, companyId)))) throw invalidCompanyError();
    await assertValid(vars, RULES(true));
    const changes: { name?: string; hostname?: string | null } = {};
    if (vars.name !== undefined) changes.name = String(vars.name).trim();
    if (vars.hostname !== undefined) changes.hostname = text(vars.hostname);
    if (Object.keys(changes).length) await this.ctx.db.updateTable('companies').set(changes).where('id', '=', companyId).execute();
    return this.get(companyId);
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

export { invalidCompanyError as invalidCompany } from '../trust/tenancy';
