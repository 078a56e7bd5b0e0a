import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { ExtensionCatalog } from '../../kernel/extension-catalog';
import { FieldErrors } from '../../kernel/errors';
import { facet } from '../../kernel/model';
import { int, object, string } from '../../kernel/parameter';
import { int as id, nothing } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { isUniqueViolation } from '../../db/errors';
import { PLUGIN_MESSAGES } from '../plugin-registrations.fields';
import { findPlugin, requirePlugin } from './installed-plugin';
import { Fields, readRegistration, Values } from './registration-values';

const MESSENGER = /^[a-z][a-z0-9_]{0,31}$/;
const MOST_TEXT = 10_000;
const FIELDS: Fields = {
  action: { label: 'an action', max: 64, required: true, valid: [(t) => /^[a-z0-9_.]+$/.test(t), 'The action may hold only lowercase letters, digits, _ and .'] },
  type: { label: 'a type', max: 16, required: true, oneOf: ['staff', 'client', 'shared'] },
  tags: { label: 'tags', max: 1000 },
  content: 'object',
};

/**
 * The reference's plugin messages: the texts a plugin sends through messengers (SMS and the like)
 * for an action of its own, per messenger type. Tally keeps them per company, one per action; it
 * ships no messenger, so they are stored for the plugin (and the reference's consumers) to read.
 */
@facet('plugin_manager')
export class PluginMessages {
  constructor(
    private readonly ctx: CallContext,
    private readonly catalog: ExtensionCatalog,
  ) {}

  @callable({
    verb: 'POST',
    params: [int('plugin_id'), object('vars')],
    returns: id({ description: 'The new message id.' }),
    description:
      'Register a message of the company\'s plugin: vars[action] (unique in the company), vars[type] (staff, client, shared), vars[tags] ("{client},{service.name}"), vars[content][<messenger type>] (its text, at least one). Returns its id.',
  })
  async addMessage(pluginId: number, vars: Record<string, unknown>) {
    await requirePlugin(this.ctx, this.catalog, pluginId);
    const values = checkContent(readRegistration(vars, FIELDS, false, 'message'), true);
    try {
      const row = await this.ctx.db
        .insertInto('plugin_messages')
        .values({
          company_id: this.ctx.companyId,
          plugin_id: pluginId,
          action: values.action as string,
          type: values.type as string,
          tags: (values.tags as string | null | undefined) ?? '',
          content: JSON.stringify(values.content),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    } catch (error) {
      if (isUniqueViolation(error)) throw TallyError.invalid({ action: { unique: 'The company already has a message for this action.' } });
      throw error;
    }
  }

  @callable({
    verb: 'PUT',
    params: [int('plugin_id'), object('vars'), int('message_id')],
    returns: nothing(),
    description: "Change any of vars[action], vars[type], vars[tags], vars[content][<messenger type>] (replaces them all) of the plugin's message message_id.",
  })
  async editMessage(pluginId: number, vars: Record<string, unknown>, messageId: number) {
    await requirePlugin(this.ctx, this.catalog, pluginId);
    const message = await this.messages().where('plugin_messages.plugin_id', '=', pluginId).where('plugin_messages.id', '=', messageId).executeTakeFirst();
    if (!message) throw TallyError.invalid({ message_id: { exists: 'The plugin has no message with this ID.' } });
    const values = checkContent(readRegistration(vars, FIELDS, true, 'message'), false);
    const changes = {
      ...values,
      ...(values.content !== undefined ? { content: JSON.stringify(values.content) } : {}),
      ...(values.tags !== undefined ? { tags: (values.tags as string | null) ?? '' } : {}),
    };
    try {
      if (Object.keys(changes).length) await this.ctx.db.updateTable('plugin_messages').set(changes).where('id', '=', messageId).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw TallyError.invalid({ action: { unique: 'The company already has a message for this action.' } });
      throw error;
    }
    return null;
  }

  @callable({ verb: 'DELETE', params: [string('action')], returns: nothing(), description: "Remove the message for action of the company's plugins; none is a no-op." })
  async deleteMessage(action: string) {
    await this.ctx.db.deleteFrom('plugin_messages').where('company_id', '=', this.ctx.companyId).where('action', '=', action).execute();
    return null;
  }

  @callable({ verb: 'GET', params: [int('plugin_id')], returns: PLUGIN_MESSAGES, description: "Tally's own: every message of the company's plugin; another company's plugin has none." })
  async getMessages(pluginId: number) {
    if (!(await findPlugin(this.ctx, pluginId))) return [];
    const rows = await this.messages().where('plugin_messages.plugin_id', '=', pluginId).orderBy('plugin_messages.id').execute();
    return rows.map((row) => ({ ...row, content: JSON.parse(row.content) as Record<string, string> }));
  }

  private messages() {
    return this.ctx.db
      .selectFrom('plugin_messages')
      .innerJoin('extensions_installed', 'extensions_installed.id', 'plugin_messages.plugin_id')
      .select([
        'plugin_messages.id',
        'plugin_messages.plugin_id',
        'extensions_installed.name as plugin_dir',
        'plugin_messages.action',
        'plugin_messages.type',
        'plugin_messages.tags',
        'plugin_messages.content',
      ])
      .where('plugin_messages.company_id', '=', this.ctx.companyId)
      .where('extensions_installed.company_id', '=', this.ctx.companyId);
  }
}

/** content: messenger type → text, at least one when adding (or when an edit sends it). */
function checkContent(values: Values, adding: boolean): Values {
  if (!adding && values.content === undefined) return values;
  const content = (values.content ?? {}) as Record<string, unknown>;
  const errors: FieldErrors = {};
  if (!Object.keys(content).length) errors.content = { empty: 'Please enter the message text for at least one messenger type: vars[content][sms]=...' };
  for (const [type, text] of Object.entries(content)) {
    if (!MESSENGER.test(type)) errors[`content[${type}]`] = { valid: 'A messenger type is lowercase letters, digits and _, starting with a letter.' };
    else if (typeof text !== 'string' || !text.trim()) errors[`content[${type}]`] = { empty: 'Please enter the message text.' };
    else if (text.length > MOST_TEXT) errors[`content[${type}]`] = { length: `The message text may be at most ${MOST_TEXT} characters.` };
  }
  if (Object.keys(errors).length) throw TallyError.invalid(errors);
  return values;
}
