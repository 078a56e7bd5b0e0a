import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { ExtensionCatalog } from '../../kernel/extension-catalog';
import { facet } from '../../kernel/model';
import { bool, int, object, string } from '../../kernel/parameter';
import { nothing, orFalse } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { isUniqueViolation } from '../../db/errors';
import { isEventName } from '../../events/event-names';
import { PLUGIN_EVENT, PLUGIN_EVENTS } from '../plugin-registrations.fields';
import { ownCompany, requirePlugin } from './installed-plugin';
import { enabledFilter, Fields, readRegistration, withCallbackName } from './registration-values';

const FIELDS: Fields = { event: { label: 'an event', max: 128, required: true }, callback: { label: 'a callback', max: 128 }, enabled: 'enabled' };
const EDITABLE: Fields = { callback: FIELDS.callback, enabled: 'enabled' };

/**
 * The reference's plugin events: which events a company's plugin is subscribed to. A plugin's
 * manifest lists the events its handlers receive (`events`, each one Tally emits: docs/events.md);
 * a registration names one of those, and disabling it (enabled 0) stops that event's deliveries to
 * the plugin for the company until it is enabled again (host/extensions/host-catalog.ts).
 */
@facet('plugin_manager')
export class PluginEvents {
  constructor(
    private readonly ctx: CallContext,
    private readonly catalog: ExtensionCatalog,
  ) {}

  @callable({
    verb: 'POST',
    params: [int('plugin_id'), object('vars')],
    returns: nothing(),
    description:
      "Subscribe the company's plugin to vars[event] (an event Tally emits that the plugin's manifest lists in events), with optional vars[callback] (its handler, exports.events[event]; the event's name) and vars[enabled] (1, 0; 1).",
  })
  async addEvent(pluginId: number, vars: Record<string, unknown>) {
    const { info } = await requirePlugin(this.ctx, this.catalog, pluginId);
    const values = readRegistration(withCallbackName(vars), FIELDS, false, 'event');
    const event = values.event as string;
    if (!isEventName(event)) throw TallyError.invalid({ event: { valid: `"${event}" is not an event Tally emits (docs/events.md lists them).` } });
    if (!info?.capabilities.events.includes(event)) {
      throw TallyError.invalid({ event: { manifest: `The plugin's manifest does not list "${event}" in its events, so it has no handler for it.` } });
    }
    try {
      await this.ctx.db
        .insertInto('plugin_events')
        .values({ company_id: this.ctx.companyId, plugin_id: pluginId, event, callback: (values.callback as string | null | undefined) ?? event, enabled: (values.enabled as number | undefined) ?? 1 })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw TallyError.invalid({ event: { unique: `The plugin is already subscribed to "${event}".` } });
      throw error;
    }
    return null;
  }

  @callable({
    verb: 'PUT',
    params: [int('plugin_id'), string('event'), object('vars')],
    returns: nothing(),
    description: "Change vars[callback] or vars[enabled] (1, 0) of the plugin's subscription to event.",
  })
  async editEvent(pluginId: number, event: string, vars: Record<string, unknown>) {
    await requirePlugin(this.ctx, this.catalog, pluginId);
    if (!(await this.getEvent(pluginId, event))) throw TallyError.invalid({ event: { exists: `The plugin is not subscribed to "${event}".` } });
    const values = readRegistration(withCallbackName(vars), EDITABLE, true, 'event');
    const changes = {
      ...(values.callback !== undefined ? { callback: (values.callback as string | null) ?? event } : {}),
      ...(values.enabled !== undefined ? { enabled: values.enabled as number } : {}),
    };
    if (Object.keys(changes).length)
      await this.ctx.db.updateTable('plugin_events').set(changes).where('company_id', '=', this.ctx.companyId).where('plugin_id', '=', pluginId).where('event', '=', event).execute();
    return null;
  }

  @callable({
    verb: 'DELETE',
    params: [int('plugin_id'), string('event')],
    returns: nothing(),
    description: "End the plugin's subscription to event (its manifest's handler then receives it again, as before any registration).",
  })
  async deleteEvent(pluginId: number, event: string) {
    await requirePlugin(this.ctx, this.catalog, pluginId);
    await this.ctx.db.deleteFrom('plugin_events').where('company_id', '=', this.ctx.companyId).where('plugin_id', '=', pluginId).where('event', '=', event).execute();
    return null;
  }

  @callable({ verb: 'GET', params: [int('plugin_id'), string('event')], returns: orFalse(PLUGIN_EVENT), description: "The plugin's subscription to event; false when there is none." })
  async getEvent(pluginId: number, event: string) {
    const row = await this.events().where('plugin_events.plugin_id', '=', pluginId).where('plugin_events.event', '=', event).executeTakeFirst();
    return row ? present(row) : (false as const);
  }

  @callable({
    verb: 'GET',
    params: [int('company_id'), string('event'), bool('enabled', { default: null })],
    returns: PLUGIN_EVENTS,
    description: "The company's plugins subscribed to event; enabled 1: plugin and subscription enabled, 0: either disabled. Another company lists none.",
  })
  async getEvents(companyId: number, event: string, enabled: boolean | null) {
    if (!ownCompany(this.ctx, companyId)) return [];
    let query = this.events().where('plugin_events.event', '=', event);
    const wanted = enabledFilter(enabled);
    if (wanted === 1) query = query.where('plugin_events.enabled', '=', 1).where('extensions_installed.status', '=', 'enabled');
    if (wanted === 0) query = query.where((eb) => eb.or([eb('plugin_events.enabled', '=', 0), eb('extensions_installed.status', '!=', 'enabled')]));
    return (await query.orderBy('plugin_events.id').execute()).map(present);
  }

  @callable({ verb: 'GET', params: [int('plugin_id')], returns: PLUGIN_EVENTS, description: "Every subscription of the company's plugin; another company's plugin has none." })
  async getAllEvents(pluginId: number) {
    return (await this.events().where('plugin_events.plugin_id', '=', pluginId).orderBy('plugin_events.id').execute()).map(present);
  }

  private events() {
    return this.ctx.db
      .selectFrom('plugin_events')
      .innerJoin('extensions_installed', 'extensions_installed.id', 'plugin_events.plugin_id')
      .select(['plugin_events.plugin_id', 'extensions_installed.name as plugin_dir', 'plugin_events.event', 'plugin_events.callback', 'plugin_events.enabled'])
      .where('plugin_events.company_id', '=', this.ctx.companyId)
      .where('extensions_installed.company_id', '=', this.ctx.companyId);
  }
}

function present(row: { plugin_id: number; plugin_dir: string; event: string; callback: string; enabled: number }) {
  return { ...row, enabled: Number(row.enabled) };
}
