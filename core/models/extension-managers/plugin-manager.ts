import { model } from '../../kernel/model';
import { ExtensionType } from '../../kernel/extension-catalog';
import { declareManagerCallables } from './manager-callables';
import { ReferenceManager } from './reference-manager';

/** Installs, configures and removes plugins for the caller's company. */
@model('plugin_manager')
export class PluginManager extends ReferenceManager {
  protected readonly type: ExtensionType = 'plugin';

  async getByDir(dir: string, companyId: number | null) {
    return this.getByName(dir, companyId);
  }

  async isInstalled(dir: string, companyId: number | null) {
    return this.isInstalledName(dir, companyId);
  }
}

declareManagerCallables(PluginManager, 'plugin');
