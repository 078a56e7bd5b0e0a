import { sql } from 'kysely';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { assertValid, is, RuleSet } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { any, bool, int, object, string } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { ordered, readOrder } from '../billing/ordering';
import { effectiveSettings, ownSettings, setOwnSetting, setOwnSettings, overrideValueRules, ownSettingsRules, settingKeyRules, unsetOwnSettings } from '../billing/owner-settings';
import { optionalText, pageOffset } from '../billing/values';
import { defaultGroupId, findGroup, groupQuery, invalidGroup } from '../billing/group-store';
import { int as count, listOf, nothing, orFalse } from '../kernel/shape';
import { CLIENT_GROUP, CLIENT_GROUP_ADD, CLIENT_GROUP_EDIT, SETTING, SETTINGS_VARS } from './clients.fields';
import { PAGE_SIZE } from '../kernel/paging';

const ORDER: Record<string, string> = { name: 'name', id: 'id', color: 'color' };

/**
 * Client groups of a company: a name, a colour, and settings every client of the group inherits
 * unless it sets its own (client > group > company > system). The company's first group is its
 * default: clients added without a group join it.
 */
@model('client_groups')
export class ClientGroups {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description: "Add a group: vars[name], optional vars[description] and vars[color] (six hex digits; default ffffff). vars[company_id], when given, must be the caller's company. Returns its id.",
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: CLIENT_GROUP_ADD,
    returns: count({ description: 'The new group id.' }),
  })
  async add(vars: Record<string, unknown>) {
    await assertValid(vars, this.rules(false));
    const row = await this.ctx.db
      .insertInto('client_groups')
      .values({ company_id: this.ctx.companyId, name: String(vars.name).trim(), description: optionalText(vars.description), color: optionalText(vars.color)?.toLowerCase() ?? 'ffffff' })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  @callable({
    description: 'Change vars[name], vars[description] or vars[color] of a group.',
    verb: 'PUT',
    params: [int('client_group_id'), object('vars')],
    vars: CLIENT_GROUP_EDIT,
    returns: nothing(),
  })
  async edit(groupId: number, vars: Record<string, unknown>) {
    await this.group(groupId);
    await assertValid(vars, this.rules(true));
    const changes: { name?: string; description?: string | null; color?: string } = {};
    if (vars.name !== undefined) changes.name = String(vars.name).trim();
    if (vars.description !== undefined) changes.description = optionalText(vars.description);
    if (vars.color !== undefined) changes.color = String(vars.color).toLowerCase();
    if (Object.keys(changes).length) await this.ctx.db.updateTable('client_groups').set(changes).where('id', '=', groupId).execute();
    return null;
  }

  @callable({
    description: 'Delete a group and its settings. The default group, and a group that still has clients, are kept (400).',
    verb: 'DELETE',
    params: [int('client_group_id')],
    returns: nothing(),
  })
  async delete(groupId: number) {
    await this.group(groupId);
    if ((await defaultGroupId(this.ctx.db, this.ctx.companyId)) === groupId && (await this.getListCount(this.ctx.companyId)) > 1) {
      throw TallyError.invalid({ client_group_id: { default: 'The default client group cannot be deleted while other groups exist.' } });
    }
    if (await this.ctx.db.selectFrom('clients').select('id').where('client_group_id', '=', groupId).executeTakeFirst()) {
      throw TallyError.invalid({ client_group_id: { in_use: 'The client group cannot be deleted because clients are assigned to it.' } });
    }
    await unsetOwnSettings(this.ctx.db, 'client_group', groupId);
    await this.ctx.db.deleteFrom('client_groups').where('id', '=', groupId).execute();
    return null;
  }

  @callable({ description: "A client group; false when the caller's company has none with this id.", verb: 'GET', params: [int('client_group_id')], returns: orFalse(CLIENT_GROUP) })
  async get(groupId: number) {
    return (await findGroup(this.ctx.db, this.ctx.companyId, groupId)) ?? false;
  }

  @callable({ description: "Every group of a company (the caller's; another company_id lists nothing), by name.", verb: 'GET', params: [int('company_id')], returns: listOf(CLIENT_GROUP) })
  async getAll(companyId: number) {
    return groupQuery(this.ctx.db, this.ctx.companyId).where('company_id', '=', companyId).orderBy('name').orderBy('id').execute();
  }

  @callable({ description: "The company's default group (its first); false when it has none.", verb: 'GET', params: [int('company_id')], returns: orFalse(CLIENT_GROUP) })
  async getDefault(companyId: number) {
    if (companyId !== this.ctx.companyId) return false;
    const id = await defaultGroupId(this.ctx.db, this.ctx.companyId);
    return id === null ? false : this.get(id);
  }

  @callable({
    description: "One page (25) of a company's groups; order_by[field]=ASC|DESC over name, id, color.",
    verb: 'GET',
    params: [int('company_id'), int('page', { default: 1 }), object('order_by', { default: { name: 'ASC' } })],
    returns: listOf(CLIENT_GROUP),
  })
  async getList(companyId: number, page: number, orderBy: unknown) {
    const query = groupQuery(this.ctx.db, this.ctx.companyId).where('company_id', '=', companyId);
    return ordered(query, readOrder(orderBy, ORDER), 'id').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
  }

  @callable({ description: 'How many groups a company has.', verb: 'GET', params: [int('company_id')], returns: count() })
  async getListCount(companyId: number) {
    const row = await groupQuery(this.ctx.db, this.ctx.companyId)
      .clearSelect()
      .select(sql<number>`count(*)`.as('count'))
      .where('company_id', '=', companyId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  @callable({
    description: 'One effective setting of a group ({key, value, encrypted, level}); false when none has it.',
    verb: 'GET',
    params: [int('client_group_id'), string('key')],
    returns: orFalse(SETTING),
  })
  async getSetting(groupId: number, key: string) {
    return (await this.settings(groupId, false)).get(key) ?? false;
  }

  @callable({
    description: "The group's settings: its own and, unless ignore_inheritence is true, the company's and the system's it inherits.",
    verb: 'GET',
    params: [int('client_group_id'), bool('ignore_inheritence', { default: false })],
    returns: listOf(SETTING),
  })
  async getSettings(groupId: number, ignoreInheritence: boolean) {
    return [...(await this.settings(groupId, ignoreInheritence)).values()];
  }

  @callable({
    description: "Set one of the group's settings; encrypted (true) stores it with systemEncrypt.",
    verb: 'POST',
    params: [int('client_group_id'), string('key'), any('value'), any('encrypted', { default: null })],
    returns: nothing(),
  })
  async setSetting(groupId: number, key: string, value: unknown, encrypted: unknown) {
    await this.group(groupId);
    await assertValid({ key, value }, { ...settingKeyRules, ...overrideValueRules({ [key]: value }, () => 'value') });
    await setOwnSetting(this.ctx.db, 'client_group', groupId, key, value, encrypted, this.ctx.systemKey);
    return null;
  }

  @callable({
    description: "Set several of the group's settings from vars[key]=value; value_keys (a list) limits which keys are set.",
    verb: 'POST',
    params: [int('client_group_id'), object('vars'), any('value_keys', { default: null })],
    vars: SETTINGS_VARS,
    returns: nothing(),
  })
  async setSettings(groupId: number, vars: Record<string, unknown>, valueKeys: unknown) {
    await this.group(groupId);
    await assertValid(
      vars,
      ownSettingsRules(vars, (key) => `vars[${key}]`),
    );
    await setOwnSettings(this.ctx.db, 'client_group', groupId, vars, valueKeys, this.ctx.systemKey);
    return null;
  }

  @callable({ description: "Remove one of the group's settings.", verb: 'DELETE', params: [int('client_group_id'), string('key')], returns: nothing() })
  async unsetSetting(groupId: number, key: string) {
    await this.group(groupId);
    await unsetOwnSettings(this.ctx.db, 'client_group', groupId, key);
    return null;
  }

  @callable({ description: 'Remove every setting of the group.', verb: 'DELETE', params: [int('client_group_id')], returns: nothing() })
  async unsetSettings(groupId: number) {
    await this.group(groupId);
    await unsetOwnSettings(this.ctx.db, 'client_group', groupId);
    return null;
  }

  private async settings(groupId: number, own: boolean) {
    await this.group(groupId);
    return own ? ownSettings(this.ctx.db, 'client_group', groupId, this.ctx.systemKey) : effectiveSettings(this.ctx.db, this.ctx.companyId, this.ctx.systemKey, [['client_group', groupId]]);
  }

  private async group(groupId: number) {
    const group = await findGroup(this.ctx.db, this.ctx.companyId, groupId);
    if (!group) throw invalidGroup();
    return group;
  }

  private rules(ifSet: boolean): RuleSet {
    return {
      company_id: { ifSet: true, rules: [{ code: 'exists', message: 'Invalid company ID; a credential adds groups to its own company.', check: (v) => Number(v) === this.ctx.companyId }] },
      name: {
        ifSet,
        rules: [
          { code: 'empty', message: 'Please enter a name for this client group.', check: is.present, final: true },
          { code: 'length', message: 'The name may be at most 255 characters long.', check: (v) => String(v).trim().length <= 255 },
        ],
      },
      color: { ifSet: true, rules: [{ code: 'format', message: 'The color must be six hexadecimal digits, such as ff0000.', check: (v) => /^[0-9a-fA-F]{6}$/.test(String(v)) }] },
    };
  }
}
