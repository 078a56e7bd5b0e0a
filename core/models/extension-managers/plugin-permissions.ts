import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { ExtensionCatalog } from '../../kernel/extension-catalog';
import { facet } from '../../kernel/model';
import { int, object, string } from '../../kernel/parameter';
import { int as id, nothing } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { isUniqueViolation } from '../../db/errors';
import { PLUGIN_PERMISSION_GROUPS } from '../plugin-registrations.fields';
import { findPlugin, requirePlugin } from './installed-plugin';
import { Fields, readRegistration } from './registration-values';

const ALIAS = { label: 'an alias', max: 128, required: true } as const;
const GROUP_FIELDS: Fields = { name: { label: 'a name', max: 128, required: true }, level: { label: 'a level', max: 16, required: true, oneOf: ['staff', 'client'] }, alias: ALIAS };
const PERMISSION_FIELDS: Fields = {
  group_alias: { label: 'the alias of its permission group', max: 128, required: true },
  name: GROUP_FIELDS.name,
  alias: ALIAS,
  action: { label: 'an action', max: 128, required: true },
};

/**
 * The reference's plugin permissions: a plugin's permission groups (an alias, staff or client
 * level) and the permissions in them (an alias and an action each), as the company's plugin
 * registers them. Kept per company for its installed plugins; uninstalling removes them.
 */
@facet('plugin_manager')
export class PluginPermissions {
  constructor(
    private readonly ctx: CallContext,
    private readonly catalog: ExtensionCatalog,
  ) {}

  @callable({
    verb: 'POST',
    params: [int('plugin_id'), object('vars')],
    returns: id({ description: 'The new permission group id.' }),
    description: "Register a permission group of the company's plugin: vars[name], vars[level] (staff, client), vars[alias] (unique for the plugin). Returns its id.",
  })
  async addPermissionGroup(pluginId: number, vars: Record<string, unknown>) {
    await requirePlugin(this.ctx, this.catalog, pluginId);
    const values = readRegistration(vars, GROUP_FIELDS, false, 'permission group');
    try {
      const row = await this.ctx.db
        .insertInto('plugin_permission_groups')
        .values({ company_id: this.ctx.companyId, plugin_id: pluginId, name: values.name as string, level: values.level as string, alias: values.alias as string })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    } catch (error) {
      if (isUniqueViolation(error)) throw TallyError.invalid({ alias: { unique: 'The plugin already has a permission group with this alias.' } });
      throw error;
    }
  }

  @callable({ verb: 'DELETE', params: [int('plugin_id'), string('alias')], returns: nothing(), description: "Remove the plugin's permission group with that alias, and its permissions." })
  async deletePermissionGroup(pluginId: number, alias: string) {
    await requirePlugin(this.ctx, this.catalog, pluginId);
    const group = await this.groups(pluginId).where('alias', '=', alias).executeTakeFirst();
    if (!group) return null;
    await this.ctx.db.deleteFrom('plugin_permissions').where('company_id', '=', this.ctx.companyId).where('group_id', '=', group.id).execute();
    await this.ctx.db.deleteFrom('plugin_permission_groups').where('id', '=', group.id).execute();
    return null;
  }

  @callable({
    verb: 'POST',
    params: [int('plugin_id'), object('vars')],
    returns: id({ description: 'The new permission id.' }),
    description: "Register a permission of the company's plugin in its group vars[group_alias]: vars[name], vars[alias], vars[action] (alias and action unique for the plugin). Returns its id.",
  })
  async addPermission(pluginId: number, vars: Record<string, unknown>) {
    await requirePlugin(this.ctx, this.catalog, pluginId);
    const values = readRegistration(vars, PERMISSION_FIELDS, false, 'permission');
    const group = await this.groups(pluginId)
      .where('alias', '=', values.group_alias as string)
      .executeTakeFirst();
    if (!group) throw TallyError.invalid({ group_alias: { exists: 'The plugin has no permission group with this alias.' } });
    try {
      const row = await this.ctx.db
        .insertInto('plugin_permissions')
        .values({ company_id: this.ctx.companyId, plugin_id: pluginId, group_id: group.id, name: values.name as string, alias: values.alias as string, action: values.action as string })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    } catch (error) {
      if (isUniqueViolation(error)) throw TallyError.invalid({ alias: { unique: 'The plugin already has a permission with this alias and action.' } });
      throw error;
    }
  }

  @callable({ verb: 'DELETE', params: [int('plugin_id'), string('alias'), string('action')], returns: nothing(), description: "Remove the plugin's permission with that alias and action." })
  async deletePermission(pluginId: number, alias: string, action: string) {
    await requirePlugin(this.ctx, this.catalog, pluginId);
    await this.ctx.db.deleteFrom('plugin_permissions').where('company_id', '=', this.ctx.companyId).where('plugin_id', '=', pluginId).where('alias', '=', alias).where('action', '=', action).execute();
    return null;
  }

  @callable({
    verb: 'GET',
    params: [int('plugin_id')],
    returns: PLUGIN_PERMISSION_GROUPS,
    description: "Tally's own: the permission groups of the company's plugin with their permissions; another company's plugin has none.",
  })
  async getPermissionGroups(pluginId: number) {
    const plugin = await findPlugin(this.ctx, pluginId);
    if (!plugin) return [];
    const groups = await this.groups(pluginId).orderBy('id').execute();
    const permissions = await this.ctx.db
      .selectFrom('plugin_permissions')
      .select(['id', 'group_id', 'name', 'alias', 'action'])
      .where('company_id', '=', this.ctx.companyId)
      .where('plugin_id', '=', pluginId)
      .orderBy('id')
      .execute();
    return groups.map((group) => ({ ...group, plugin_dir: plugin.name, permissions: permissions.filter((p) => p.group_id === group.id) }));
  }

  private groups(pluginId: number) {
    return this.ctx.db.selectFrom('plugin_permission_groups').select(['id', 'plugin_id', 'name', 'level', 'alias']).where('company_id', '=', this.ctx.companyId).where('plugin_id', '=', pluginId);
  }
}
