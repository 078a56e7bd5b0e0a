import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { ExtensionCatalog } from '../../kernel/extension-catalog';
import { FieldErrors } from '../../kernel/errors';
import { facet } from '../../kernel/model';
import { int, list, string } from '../../kernel/parameter';
import { nothing } from '../../kernel/shape';
import { systemEncrypt } from '../../kernel/system-cipher';
import { TallyError } from '../../kernel/tally-error';
import { truthy } from '../../billing/values';
import { MODULE_META } from '../module-rows.fields';
import { findModule, requireModule } from './installed-module';

/**
 * The reference's module meta: key/value pairs kept for the company's installed module, replaced
 * as a whole by setMeta. A value set with `encrypted` is stored with systemEncrypt and, as secret
 * settings are, never answered.
 */
@facet('module_manager')
export class ModuleMeta {
  constructor(
    private readonly ctx: CallContext,
    private readonly catalog: ExtensionCatalog,
  ) {}

  @callable({
    verb: 'GET',
    params: [int('module_id'), string('key', { default: null })],
    returns: MODULE_META,
    description: "The module's meta as key → value (only `key` when given); values set encrypted are not answered. Another company's module has none.",
  })
  async getMeta(moduleId: number, key: string | null) {
    if (!(await findModule(this.ctx, moduleId))) return {};
    let query = this.ctx.db.selectFrom('module_meta').select(['key', 'value']).where('company_id', '=', this.ctx.companyId).where('module_id', '=', moduleId).where('encrypted', '=', 0);
    if (key !== null) query = query.where('key', '=', key);
    const rows = await query.orderBy('key').execute();
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }

  @callable({
    verb: 'POST',
    params: [int('module_id'), list('vars')],
    returns: nothing(),
    description: "Replace the module's meta with vars: a list of { key, value, encrypted (0, 1; 0) }.",
  })
  async setMeta(moduleId: number, vars: unknown[]) {
    await requireModule(this.ctx, this.catalog, moduleId);
    const errors: FieldErrors = {};
    const entries = new Map<string, { value: string; encrypted: boolean }>();
    vars.forEach((entry, i) => {
      const e = (entry ?? {}) as Record<string, unknown>;
      if (typeof entry !== 'object' || Array.isArray(entry) || typeof e.key !== 'string' || !/^[A-Za-z0-9_.-]{1,128}$/.test(e.key)) {
        errors[`vars[${i}][key]`] = { format: 'A meta key is 1 to 128 letters, digits, _, . or -.' };
      } else if (e.value !== undefined && e.value !== null && typeof e.value === 'object') {
        errors[`vars[${i}][value]`] = { format: 'A meta value is a single value.' };
      } else entries.set(e.key, { value: e.value === undefined || e.value === null ? '' : String(e.value), encrypted: truthy(e.encrypted ?? false) });
    });
    if (Object.keys(errors).length) throw TallyError.invalid(errors);
    await this.ctx.db.deleteFrom('module_meta').where('company_id', '=', this.ctx.companyId).where('module_id', '=', moduleId).execute();
    for (const [key, { value, encrypted }] of entries) {
      await this.ctx.db
        .insertInto('module_meta')
        .values({ company_id: this.ctx.companyId, module_id: moduleId, key, value: encrypted ? systemEncrypt(value, this.ctx.systemKey) : value, encrypted: encrypted ? 1 : 0 })
        .execute();
    }
    return null;
  }
}
