import { model } from '../../kernel/model';
import { ExtensionType } from '../../kernel/extension-catalog';
import { declareManagerCallables } from './manager-callables';
import { ReferenceManager } from './reference-manager';
import { PluginActions } from './plugin-actions';
import { PluginCards } from './plugin-cards';
import { PluginEvents } from './plugin-events';
import { PluginMessages } from './plugin-messages';
import { PluginPermissions } from './plugin-permissions';
import { findPlugin } from './installed-plugin';

/** What a plugin registers with its company, removed with the plugin (migration 032). */
const REGISTRATIONS = ['plugin_actions', 'plugin_cards', 'plugin_events', 'plugin_messages', 'plugin_permissions', 'plugin_permission_groups'] as const;

/** Installs, configures and removes plugins for the caller's company; what a plugin registers (actions, cards, events, messages, permissions) are its facets. */
@model('plugin_manager', { facets: [PluginActions, PluginCards, PluginEvents, PluginMessages, PluginPermissions] })
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

  /** As the reference: uninstalling removes what the plugin registered with the company. */
  override async delete(id: number) {
    if (!(await findPlugin(this.ctx, id))) return null;
    await super.delete(id);
    for (const table of REGISTRATIONS) await this.ctx.db.deleteFrom(table).where('company_id', '=', this.ctx.companyId).where('plugin_id', '=', id).execute();
    return null;
  }
}

declareManagerCallables(PluginManager, 'plugin');
