import { model } from '../../kernel/model';
import { ExtensionType } from './catalog';
import { ExtensionManager } from './extension-manager';
import { declareManagerCallables } from './manager-callables';

/** Installs, configures and removes plugins for the caller's company. */
@model('plugin_manager')
export class PluginManager extends ExtensionManager {
  protected readonly type: ExtensionType = 'plugin';
}

declareManagerCallables(PluginManager, 'plugin');
