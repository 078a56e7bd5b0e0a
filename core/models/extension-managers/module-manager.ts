import { model } from '../../kernel/model';
import { ExtensionType } from './catalog';
import { ExtensionManager } from './extension-manager';
import { declareManagerCallables } from './manager-callables';

/** Installs, configures and removes modules for the caller's company. */
@model('module_manager')
export class ModuleManager extends ExtensionManager {
  protected readonly type: ExtensionType = 'module';
}

declareManagerCallables(ModuleManager, 'module');
