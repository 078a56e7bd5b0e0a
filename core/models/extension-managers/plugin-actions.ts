import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { ExtensionCatalog } from '../../kernel/extension-catalog';
import { facet } from '../../kernel/model';
import { bool, int, object, string } from '../../kernel/parameter';
import { int as id, nothing, orFalse } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { isUniqueViolation } from '../../db/errors';
import { ACTION_LOCATIONS, PLUGIN_ACTION, PLUGIN_ACTIONS } from '../plugin-registrations.fields';
import { ownCompany, requirePlugin } from './installed-plugin';
import { enabledFilter, Fields, isSafeLink, readRegistration } from './registration-values';

const FIELDS: Fields = {
  location: { label: 'a location', max: 32, oneOf: ACTION_LOCATIONS },
  url: { label: 'a URL', max: 255, required: true, valid: [isSafeLink, 'The URL must be a path on Tally or an http(s) address.'] },
  name: { label: 'a name', max: 128, required: true },
  options: 'object',
  enabled: 'enabled',
};

/**
 * The reference's plugin actions: links a plugin offers in a navigation or on a page of the admin
 * area, the client area or the public pages (its `location`). Kept per company, for the company's
 * installed plugins only; a screen shows an action's name as text and its URL only as a link.
 */
@facet('plugin_manager')
export class PluginActions {
  constructor(
    private readonly ctx: CallContext,
    private readonly catalog: ExtensionCatalog,
  ) {}

  @callable({
    verb: 'POST',
    params: [int('plugin_id'), object('vars'), object('current_actions', { default: [] })],
    returns: id({ description: 'The new action id.' }),
    description: `Register an action of the company's plugin: vars[url] (a path on Tally or an http(s) address), vars[name], optional vars[location] (${ACTION_LOCATIONS.join(', ')}; nav_staff), vars[options][key]=value, vars[enabled] (1 or 0; 1). current_actions (the reference's upgrade helper) changes nothing. Returns its id.`,
  })
  async addAction(pluginId: number, vars: Record<string, unknown>, _currentActions: unknown) {
    await requirePlugin(this.ctx, this.catalog, pluginId);
    const values = readRegistration(vars, FIELDS, false, 'action');
    checkOptions(values.options as Record<string, unknown> | null);
    try {
      const row = await this.ctx.db
        .insertInto('plugin_actions')
        .values({
          company_id: this.ctx.companyId,
          plugin_id: pluginId,
          location: (values.location as string | undefined) ?? 'nav_staff',
          url: values.url as string,
          name: values.name as string,
          options: values.options ? JSON.stringify(Object.fromEntries(Object.entries(values.options).map(([key, value]) => [key, String(value)]))) : null,
          enabled: (values.enabled as number | undefined) ?? 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    } catch (error) {
      if (isUniqueViolation(error)) throw TallyError.invalid({ url: { unique: 'The plugin already has an action with this URL in this location.' } });
      throw error;
    }
  }

  @callable({
    verb: 'GET',
    params: [int('plugin_id'), string('action'), string('uri', { default: null })],
    returns: orFalse(PLUGIN_ACTION),
    description: "One action of the company's plugin in a location (action), with that URL when uri is given; false when there is none.",
  })
  async getAction(pluginId: number, location: string, uri: string | null) {
    let query = this.actions().where('plugin_actions.plugin_id', '=', pluginId).where('plugin_actions.location', '=', location);
    if (uri !== null) query = query.where('plugin_actions.url', '=', uri);
    const row = await query.orderBy('plugin_actions.id').executeTakeFirst();
    return row ? present(row) : (false as const);
  }

  @callable({
    verb: 'GET',
    params: [int('company_id'), string('action'), bool('enabled', { default: null }), bool('translate', { default: true })],
    returns: PLUGIN_ACTIONS,
    description:
      "The company's plugins' actions in a location (action): enabled 1 gives those whose plugin and action are both enabled, 0 those where either is disabled. Names are stored text (translate changes nothing). Another company lists none.",
  })
  async getActions(companyId: number, location: string, enabled: boolean | null, _translate: boolean) {
    if (!ownCompany(this.ctx, companyId)) return [];
    let query = this.actions().where('plugin_actions.location', '=', location);
    const wanted = enabledFilter(enabled);
    if (wanted === 1) query = query.where('plugin_actions.enabled', '=', 1).where('extensions_installed.status', '=', 'enabled');
    if (wanted === 0) query = query.where((eb) => eb.or([eb('plugin_actions.enabled', '=', 0), eb('extensions_installed.status', '!=', 'enabled')]));
    return (await query.orderBy('plugin_actions.id').execute()).map(present);
  }

  @callable({
    verb: 'GET',
    params: [int('plugin_id'), bool('translate', { default: true })],
    returns: PLUGIN_ACTIONS,
    description: "Every action of the company's plugin; another company's plugin has none.",
  })
  async getAllActions(pluginId: number, _translate: boolean) {
    return (await this.actions().where('plugin_actions.plugin_id', '=', pluginId).orderBy('plugin_actions.id').execute()).map(present);
  }

  @callable({
    verb: 'DELETE',
    params: [int('plugin_id'), string('url', { default: null })],
    returns: nothing(),
    description: "Remove the plugin's action with that URL, or all its actions. Another company's plugin is a 400 plugin_id.exists.",
  })
  async deleteActions(pluginId: number, url: string | null) {
    await requirePlugin(this.ctx, this.catalog, pluginId);
    let query = this.ctx.db.deleteFrom('plugin_actions').where('company_id', '=', this.ctx.companyId).where('plugin_id', '=', pluginId);
    if (url !== null) query = query.where('url', '=', url);
    await query.execute();
    return null;
  }

  private actions() {
    return this.ctx.db
      .selectFrom('plugin_actions')
      .innerJoin('extensions_installed', 'extensions_installed.id', 'plugin_actions.plugin_id')
      .select([
        'plugin_actions.id',
        'plugin_actions.plugin_id',
        'extensions_installed.name as plugin_dir',
        'plugin_actions.company_id',
        'plugin_actions.location',
        'plugin_actions.url',
        'plugin_actions.name',
        'plugin_actions.options',
        'plugin_actions.enabled',
      ])
      .where('plugin_actions.company_id', '=', this.ctx.companyId)
      .where('extensions_installed.company_id', '=', this.ctx.companyId);
  }
}

function present(row: { id: number; plugin_id: number; plugin_dir: string; company_id: number; location: string; url: string; name: string; options: string | null; enabled: number }) {
  return { ...row, options: row.options ? (JSON.parse(row.options) as Record<string, unknown>) : null, enabled: Number(row.enabled) };
}

/** An action's options are a few named texts (the reference keeps them serialised): nothing nested, nothing long. */
function checkOptions(options: Record<string, unknown> | null): void {
  if (!options) return;
  const entries = Object.entries(options);
  const fine = entries.length <= 50 && entries.every(([key, value]) => key.length <= 64 && (typeof value === 'string' || typeof value === 'number') && String(value).length <= 255);
  if (!fine) throw TallyError.invalid({ options: { format: 'options are at most 50 values, each a text of at most 255 characters: vars[options][name]=value.' } });
}
