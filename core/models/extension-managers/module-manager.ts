import { model } from '../../kernel/model';
import { ExtensionType } from '../../kernel/extension-catalog';
import { TallyError } from '../../kernel/tally-error';
import { declareManagerCallables } from './manager-callables';
import { ReferenceManager } from './reference-manager';
import { ModuleRows } from './module-rows';
import { ModuleGroups } from './module-groups';
import { ModuleMeta } from './module-meta';
import { ModuleRpc } from './module-rpc';
import { findModule } from './installed-module';

/** Installs, configures and removes modules for the caller's company; their rows, groups and meta are its facets. */
@model('module_manager', { facets: [ModuleRows, ModuleGroups, ModuleMeta, ModuleRpc] })
export class ModuleManager extends ReferenceManager {
  protected readonly type: ExtensionType = 'module';

  async getByClass(name: string, companyId: number | null) {
    return this.getByName(name, companyId);
  }

  async isInstalled(name: string, companyId: number | null) {
    return this.isInstalledName(name, companyId);
  }

  /** As the reference: with its rows and groups unless `rows`/`groups` is false. */
  override async get(id: number, rows = true, groups = true) {
    const module = await super.get(id);
    if (!module) return module;
    return {
      ...module,
      ...(rows ? { rows: await new ModuleRows(this.ctx, this.catalog).getRows(id, null) } : {}),
      ...(groups ? { groups: await new ModuleGroups(this.ctx, this.catalog).getGroups(id) } : {}),
    };
  }

  /** As the reference: refused while a service that is not canceled is on one of its rows; its rows, groups and meta go with it. */
  override async delete(id: number) {
    if (!(await findModule(this.ctx, id))) return null;
    const inUse = await this.ctx.db
      .selectFrom('services')
      .innerJoin('module_rows', 'module_rows.id', 'services.module_row_id')
      .select('services.id')
      .where('module_rows.company_id', '=', this.ctx.companyId)
      .where('module_rows.module_id', '=', id)
      .where('services.status', '!=', 'canceled')
      .executeTakeFirst();
    if (inUse) throw TallyError.invalid({ module_id: { assigned_service: 'The module cannot be uninstalled while a service that is not canceled is on one of its rows.' } });
    await super.delete(id);
    const rows = this.ctx.db.selectFrom('module_rows').select('id').where('company_id', '=', this.ctx.companyId).where('module_id', '=', id);
    const groups = this.ctx.db.selectFrom('module_groups').select('id').where('company_id', '=', this.ctx.companyId).where('module_id', '=', id);
    await this.ctx.db
      .deleteFrom('module_row_groups')
      .where((eb) => eb.or([eb('module_row_id', 'in', rows), eb('module_group_id', 'in', groups)]))
      .execute();
    for (const table of ['module_rows', 'module_groups', 'module_meta'] as const) {
      await this.ctx.db.deleteFrom(table).where('company_id', '=', this.ctx.companyId).where('module_id', '=', id).execute();
    }
    return null;
  }
}

declareManagerCallables(ModuleManager, 'module');
