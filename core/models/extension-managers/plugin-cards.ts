import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { ExtensionCatalog } from '../../kernel/extension-catalog';
import { facet } from '../../kernel/model';
import { any, bool, int, object, string } from '../../kernel/parameter';
import { int as id, nothing, orFalse } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { isUniqueViolation } from '../../db/errors';
import { PLUGIN_CARD, PLUGIN_CARDS } from '../plugin-registrations.fields';
import { ownCompany, requirePlugin } from './installed-plugin';
import { callbackName, enabledFilter, Fields, isSafeLink, readRegistration, Values, withCallbackName } from './registration-values';

const COLOUR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
const LEVELS = ['client', 'staff'] as const;

/** What an edit may change; adding also names the card (callback, level) and how it answers. */
const EDITABLE: Fields = {
  label: { label: 'a label', max: 128, required: true },
  link: { label: 'a link', max: 255, valid: [isSafeLink, 'The link must be a path on Tally or an http(s) address.'] },
  text_color: { label: 'a text colour', max: 7, valid: [(t) => COLOUR.test(t), 'The text colour must be #rgb or #rrggbb.'] },
  background: { label: 'a background', max: 255 },
  background_type: { label: 'a background type', max: 16, oneOf: ['color', 'image'] },
  enabled: 'enabled',
};
const ADDED: Fields = {
  level: { label: 'a level', max: 16, oneOf: LEVELS },
  callback: { label: "the plugin's function that answers the card's value", max: 128, required: true },
  // The reference's "html" card draws markup a plugin returns; Tally shows plugins' text only.
  callback_type: { label: 'a callback type', max: 16, oneOf: ['value'] },
  ...EDITABLE,
};

/**
 * The reference's plugin cards: a figure a plugin shows on a client's profile (level client) or a
 * staff page (level staff), answered by one of its functions, with a label, a link and colours.
 * A card is named by its plugin, callback and level. Tally keeps cards as text: a card's value is
 * never markup (callback_type html is refused), colours are hex, a background image an https address.
 */
@facet('plugin_manager')
export class PluginCards {
  constructor(
    private readonly ctx: CallContext,
    private readonly catalog: ExtensionCatalog,
  ) {}

  @callable({
    verb: 'POST',
    params: [int('plugin_id'), object('vars')],
    returns: id({ description: 'The new card id.' }),
    description:
      "Register a card of the company's plugin: vars[callback] (its function's name), vars[label], optional vars[level] (client, staff; client), vars[callback_type] (value), vars[link], vars[text_color] and vars[background] (#rgb or #rrggbb; an https image address with vars[background_type]=image), vars[enabled] (1, 0; 1). Returns its id.",
  })
  async addCard(pluginId: number, vars: Record<string, unknown>) {
    await requirePlugin(this.ctx, this.catalog, pluginId);
    const values = checkBackground(readRegistration(withCallbackName(vars), ADDED, false, 'card'));
    try {
      const row = await this.ctx.db
        .insertInto('plugin_cards')
        .values({
          company_id: this.ctx.companyId,
          plugin_id: pluginId,
          level: (values.level as string | undefined) ?? 'client',
          callback: values.callback as string,
          callback_type: 'value',
          label: values.label as string,
          link: (values.link as string | null | undefined) ?? null,
          text_color: (values.text_color as string | null | undefined) ?? null,
          background: (values.background as string | null | undefined) ?? null,
          background_type: (values.background_type as string | undefined) ?? 'color',
          enabled: (values.enabled as number | undefined) ?? 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    } catch (error) {
      if (isUniqueViolation(error)) throw TallyError.invalid({ callback: { unique: 'The plugin already has a card with this callback at this level.' } });
      throw error;
    }
  }

  @callable({
    verb: 'PUT',
    params: [int('plugin_id'), any('callback'), string('level'), object('vars')],
    returns: nothing(),
    description: "Change any of vars[label], vars[link], vars[text_color], vars[background], vars[background_type], vars[enabled] of the plugin's card (callback, level).",
  })
  async editCard(pluginId: number, callback: unknown, level: string, vars: Record<string, unknown>) {
    await requirePlugin(this.ctx, this.catalog, pluginId);
    const card = await this.cards()
      .where('plugin_cards.plugin_id', '=', pluginId)
      .where('plugin_cards.callback', '=', callbackKey(callback))
      .where('plugin_cards.level', '=', level)
      .executeTakeFirst();
    if (!card) throw TallyError.invalid({ callback: { exists: 'The plugin has no card with this callback at this level.' } });
    const values = checkBackground(readRegistration(vars, EDITABLE, true, 'card'), card);
    if (Object.keys(values).length) await this.ctx.db.updateTable('plugin_cards').set(values).where('id', '=', card.id).execute();
    return null;
  }

  @callable({
    verb: 'DELETE',
    params: [int('plugin_id'), any('callback', { default: null }), string('level', { default: null })],
    returns: nothing(),
    description: "Remove the plugin's cards: all of them, those of a callback, or the one of a callback at a level.",
  })
  async deleteCard(pluginId: number, callback: unknown, level: string | null) {
    await requirePlugin(this.ctx, this.catalog, pluginId);
    let query = this.ctx.db.deleteFrom('plugin_cards').where('company_id', '=', this.ctx.companyId).where('plugin_id', '=', pluginId);
    if (callback !== null) query = query.where('callback', '=', callbackKey(callback));
    if (level !== null) query = query.where('level', '=', level);
    await query.execute();
    return null;
  }

  @callable({
    verb: 'GET',
    params: [int('plugin_id'), any('callback'), string('level', { default: null })],
    returns: orFalse(PLUGIN_CARD),
    description: "The plugin's card with that callback (at that level); false when there is none.",
  })
  async getCard(pluginId: number, callback: unknown, level: string | null) {
    let query = this.cards().where('plugin_cards.plugin_id', '=', pluginId).where('plugin_cards.callback', '=', callbackKey(callback));
    if (level !== null) query = query.where('plugin_cards.level', '=', level);
    const row = await query.orderBy('plugin_cards.id').executeTakeFirst();
    return row ? present(row) : (false as const);
  }

  @callable({
    verb: 'GET',
    params: [int('company_id'), string('level', { default: null }), bool('enabled', { default: null }), bool('translate', { default: true })],
    returns: PLUGIN_CARDS,
    description: "The company's plugins' cards, of a level when given; enabled 1: plugin and card enabled, 0: either disabled. Another company lists none.",
  })
  async getCards(companyId: number, level: string | null, enabled: boolean | null, _translate: boolean) {
    if (!ownCompany(this.ctx, companyId)) return [];
    let query = this.cards();
    if (level !== null) query = query.where('plugin_cards.level', '=', level);
    const wanted = enabledFilter(enabled);
    if (wanted === 1) query = query.where('plugin_cards.enabled', '=', 1).where('extensions_installed.status', '=', 'enabled');
    if (wanted === 0) query = query.where((eb) => eb.or([eb('plugin_cards.enabled', '=', 0), eb('extensions_installed.status', '!=', 'enabled')]));
    return (await query.orderBy('plugin_cards.id').execute()).map(present);
  }

  @callable({
    verb: 'GET',
    params: [int('plugin_id'), bool('translate', { default: true })],
    returns: PLUGIN_CARDS,
    description: "Every card of the company's plugin; another company's plugin has none.",
  })
  async getAllCards(pluginId: number, _translate: boolean) {
    return (await this.cards().where('plugin_cards.plugin_id', '=', pluginId).orderBy('plugin_cards.id').execute()).map(present);
  }

  private cards() {
    return this.ctx.db
      .selectFrom('plugin_cards')
      .innerJoin('extensions_installed', 'extensions_installed.id', 'plugin_cards.plugin_id')
      .select([
        'plugin_cards.id',
        'plugin_cards.plugin_id',
        'extensions_installed.name as plugin_dir',
        'plugin_cards.level',
        'plugin_cards.callback',
        'plugin_cards.callback_type',
        'plugin_cards.label',
        'plugin_cards.link',
        'plugin_cards.text_color',
        'plugin_cards.background',
        'plugin_cards.background_type',
        'plugin_cards.enabled',
      ])
      .where('plugin_cards.company_id', '=', this.ctx.companyId)
      .where('extensions_installed.company_id', '=', this.ctx.companyId);
  }
}

/** The stored name a callback given to look a card up stands for ('' matches no card). */
function callbackKey(callback: unknown): string {
  const name = callbackName(callback);
  return typeof name === 'string' || typeof name === 'number' ? String(name).trim() : '';
}

/** A background is a hex colour, or with background_type image an https address of the image. */
function checkBackground(values: Values, current?: { background: string | null; background_type: string }): Values {
  const type = (values.background_type as string | undefined) ?? current?.background_type ?? 'color';
  const background = values.background !== undefined ? (values.background as string | null) : (current?.background ?? null);
  if (background === null) return values;
  const fine = type === 'image' ? /^https:\/\/[^\s"'<>\\()]+$/.test(background) : COLOUR.test(background);
  if (!fine) throw TallyError.invalid({ background: { valid: type === 'image' ? 'An image background must be an https address.' : 'The background must be #rgb or #rrggbb.' } });
  return values;
}

function present<T extends { enabled: number }>(row: T) {
  return { ...row, enabled: Number(row.enabled) };
}
