import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { ExtensionCatalog } from '../../kernel/extension-catalog';
import { DeclaredValues, mergeSettings } from '../../kernel/extension-settings-codec';
import { facet } from '../../kernel/model';
import { int, object, string } from '../../kernel/parameter';
import { int as id, nothing, orFalse } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { formatUtc } from '../../kernel/timestamps';
import { ModuleRowStore } from '../../billing/module-row-store';
import { MODULE_ROW, MODULE_ROWS } from '../module-rows.fields';
import { findModule, requireModule } from './installed-module';

/** A row's fields are the vars themselves: `vars[hostname]`, errors keyed `hostname`. */
const ROW_FIELDS: DeclaredValues = { at: (key) => key, noun: 'field', none: "This module declares no row fields (its manifest's row_fields)." };

export const invalidRow = () => TallyError.invalid({ module_row_id: { exists: 'Invalid module row ID.' } });

/**
 * The reference's module rows: the servers a module provisions on, registered for the company's
 * installed module with the fields its manifest declares in `row_fields` (checked on add and edit;
 * secret ones stored encrypted and never answered, only named in `secrets_set`). The module
 * receives a row's fields in clear when a service added on it is provisioned, and in moduleRpc.
 */
@facet('module_manager')
export class ModuleRows {
  constructor(
    private readonly ctx: CallContext,
    private readonly catalog: ExtensionCatalog,
  ) {}

  @callable({
    verb: 'GET',
    params: [int('module_id'), int('module_group_id', { default: null })],
    returns: MODULE_ROWS,
    description: "The module's rows (of one of its groups when module_group_id is given), oldest first; another company's module has none.",
  })
  async getRows(moduleId: number, moduleGroupId: number | null) {
    if (!(await findModule(this.ctx, moduleId))) return [];
    const rows = await this.store().rows(moduleId, moduleGroupId);
    return rows.map((row) => this.store().present(row));
  }

  @callable({ verb: 'GET', params: [int('module_row_id')], returns: orFalse(MODULE_ROW), description: 'One module row, or false.' })
  async getRow(moduleRowId: number) {
    const row = await this.store().row(moduleRowId);
    return row ? this.store().present(row) : (false as const);
  }

  @callable({
    verb: 'GET',
    params: [int('module_row_id'), string('key', { default: null })],
    description: "A row's fields as key → value (only `key` when given); secret ones are not answered.",
  })
  async getRowMeta(moduleRowId: number, key: string | null) {
    const row = await this.store().row(moduleRowId);
    if (!row) return {};
    const { meta } = this.store().present(row);
    return key === null ? meta : Object.fromEntries(Object.entries(meta).filter(([k]) => k === key));
  }

  @callable({
    verb: 'POST',
    params: [int('module_id'), object('vars')],
    returns: id({ description: 'The new module row id.' }),
    description:
      "Add a row (a server) to the company's module: vars are the fields its manifest declares in row_fields (required ones must be given; secret ones are stored encrypted). Returns its id.",
  })
  async addRow(moduleId: number, vars: Record<string, unknown>) {
    const { info } = await requireModule(this.ctx, this.catalog, moduleId);
    const declared = info?.rowFields ?? {};
    const merged = mergeSettings(vars, declared, {}, ROW_FIELDS);
    if ('errors' in merged) throw TallyError.invalid(merged.errors);
    return this.store().add(moduleId, merged.values, declared, formatUtc(new Date()));
  }

  @callable({
    verb: 'PUT',
    params: [int('module_row_id'), object('vars')],
    returns: id({ description: 'The module row id.' }),
    description: 'Change the fields named in vars of a module row (the others, secret ones included, are kept). Returns its id.',
  })
  async editRow(moduleRowId: number, vars: Record<string, unknown>) {
    const row = await this.store().row(moduleRowId);
    if (!row) throw invalidRow();
    const { info } = await requireModule(this.ctx, this.catalog, row.module_id);
    const declared = info?.rowFields ?? {};
    const merged = mergeSettings(vars, declared, this.store().decoded(row), ROW_FIELDS);
    if ('errors' in merged) throw TallyError.invalid(merged.errors);
    await this.store().update(moduleRowId, merged.values, declared);
    return moduleRowId;
  }

  @callable({
    verb: 'DELETE',
    params: [int('module_row_id')],
    returns: nothing(),
    description: "Remove a module row (and it from its groups); refused while a service that is not canceled is on it. A row that is not the company's is a no-op.",
  })
  async deleteRow(moduleRowId: number) {
    const row = await this.store().row(moduleRowId);
    if (!row) return null;
    const inUse = await this.ctx.db
      .selectFrom('services')
      .select('id')
      .where('company_id', '=', this.ctx.companyId)
      .where('module_row_id', '=', moduleRowId)
      .where('status', '!=', 'canceled')
      .executeTakeFirst();
    if (inUse) throw TallyError.invalid({ module_row_id: { assigned_service: 'The module row cannot be deleted while a service that is not canceled is on it.' } });
    await this.store().remove(moduleRowId);
    return null;
  }

  private store() {
    return new ModuleRowStore(this.ctx.db, this.ctx.companyId, this.ctx.systemKey);
  }
}
