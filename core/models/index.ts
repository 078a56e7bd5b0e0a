import { ApiKeys } from './api-keys';
import { Companies } from './companies';
import { Encryption } from './encryption';
import { GatewayManager } from './extension-managers/gateway-manager';
import { ModuleManager } from './extension-managers/module-manager';
import { PluginManager } from './extension-managers/plugin-manager';
import { Settings } from './settings';
import { Users } from './users';

/** The core models, registered under their API names by every installation. */
export const coreModels = [Users, Companies, ApiKeys, Settings, Encryption, PluginManager, ModuleManager, GatewayManager];
