import { model } from '../../kernel/model';
import { ExtensionType } from '../../kernel/extension-catalog';
import { declareManagerCallables } from './manager-callables';
import { ReferenceManager } from './reference-manager';

/** Installs, configures and removes modules for the caller's company. */
@model('module_manager')
export class ModuleManager extends ReferenceManager {
  protected readonly type: ExtensionType = 'module';

  async getByClass(name: string, companyId: number | null) {
    return this.getByName(name, companyId);
  }

  async isInstalled(name: string, companyId: number | null) {
    return this.isInstalledName(name, companyId);
  }
}

declareManagerCallables(ModuleManager, 'module');
