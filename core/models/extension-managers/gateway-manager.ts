import { model } from '../../kernel/model';
import { ExtensionType } from './catalog';
import { ExtensionManager } from './extension-manager';
import { declareManagerCallables } from './manager-callables';

/** Installs, configures and removes gateways for the caller's company. */
@model('gateway_manager')
export class GatewayManager extends ExtensionManager {
  protected readonly type: ExtensionType = 'gateway';
}

declareManagerCallables(GatewayManager, 'gateway');
