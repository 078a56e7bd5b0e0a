import { model } from '../../kernel/model';
import { ExtensionType } from '../../kernel/extension-catalog';
import { declareManagerCallables } from './manager-callables';
import { ReferenceManager } from './reference-manager';

/** Installs, configures and removes plugins for the caller's company. */
@model('plugin_manager')
export class PluginManager extends ReferenceManager {
  protected readonly type: ExtensionType = 'plugin';

  /**
   * The reference's get($plugin_id, $detailed, $company_id): the plugin installed for `company_id`
   * (the caller's by default). A credential acts for its own company only, so another company's
   * installation reads as none (false). `detailed` changes nothing: the record is always whole.
   */
  override async get(id: number, _detailed: unknown = false, companyId: number | null = null) {
    return this.ownCompany(companyId) ? super.get(id) : (false as const);
  }

  async getByDir(dir: string, companyId: number | null) {
    return this.getByName(dir, companyId);
  }

  async isInstalled(dir: string, companyId: number | null) {
    return this.isInstalledName(dir, companyId);
  }
}

declareManagerCallables(PluginManager, 'plugin');
