import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { assertValid } from '../../kernel/input-rules';
import { facet } from '../../kernel/model';
import { any, int, object, string } from '../../kernel/parameter';
import { formatUtc } from '../../kernel/timestamps';
import { readOrder, ordered } from '../../billing/ordering';
import { effectiveSettings, setOwnSetting, setOwnSettings, overrideValueRules, ownSettingsRules, settingKeyRules, unsetOwnSettings } from '../../billing/owner-settings';
import { pageOffset } from '../../billing/values';
import { requireClient } from '../../billing/client-store';
import { invalidNote, noteAuthor, noteQuery, NOTE_ORDER, noteRules, noteValues, presentNote } from './client-notes';
import { int as count, listOf, nothing, orFalse } from '../../kernel/shape';
import { NOTE, NOTE_ADD, NOTE_EDIT, SETTING, SETTINGS_VARS } from '../clients.fields';
import { PAGE_SIZE } from '../../kernel/paging';

/** Settings a client may set for itself (setClientSettings): those clients/create takes in vars[settings]. */
/** A client's effective settings: its own > its group's > the company's > the system's. */
export function clientSettings(ctx: CallContext, client: { id: number; client_group_id: number | null }) {
  return effectiveSettings(ctx.db, ctx.companyId, ctx.systemKey, [
    ['client', client.id],
    ['client_group', client.client_group_id],
  ]);
}

export const CLIENT_EDITABLE_SETTINGS = ['default_currency', 'language', 'username_type', 'tax_id'] as const;

/**
 * The settings and staff notes of a client: the half of the reference's Clients model that hangs
 * off a client. A facet of the clients model (clients.ts lists it), so these are `clients/...` methods.
 */
@facet('clients')
export class ClientSettingsAndNotes {
  constructor(private readonly ctx: CallContext) {}

  /** The client, or the reference's 400 client_id.exists. */
  private client(clientId: number) {
    return requireClient(this.ctx.db, this.ctx.companyId, clientId);
  }

  private settingsOf(client: { id: number; client_group_id: number | null }) {
    return clientSettings(this.ctx, client);
  }

  @callable({
    description: 'One effective setting of a client ({key, value, encrypted, level}), inherited from its group, company or the system when it sets none; false when none has it.',
    verb: 'GET',
    params: [int('client_id'), string('key')],
    returns: orFalse(SETTING),
  })
  async getSetting(clientId: number, key: string) {
    return (await this.settingsOf(await this.client(clientId))).get(key) ?? false;
  }

  @callable({ description: 'Every effective setting of a client ({key, value, encrypted, level}).', verb: 'GET', params: [int('client_id')], returns: listOf(SETTING) })
  async getSettings(clientId: number) {
    return [...(await this.settingsOf(await this.client(clientId))).values()];
  }

  @callable({
    description: "Set one of the client's own settings; encrypted (true) stores it with systemEncrypt.",
    verb: 'POST',
    params: [int('client_id'), string('key'), any('value'), any('encrypted', { default: null })],
    returns: nothing(),
  })
  async setSetting(clientId: number, key: string, value: unknown, encrypted: unknown) {
    await this.client(clientId);
    await assertValid({ key, value }, { ...settingKeyRules, ...overrideValueRules({ [key]: value }, () => 'value') });
    await setOwnSetting(this.ctx.db, 'client', clientId, key, value, encrypted, this.ctx.systemKey);
    return null;
  }

  @callable({
    description: "Set several of the client's own settings from vars[key]=value; value_keys (a list) limits which keys of vars are set.",
    verb: 'POST',
    params: [int('client_id'), object('vars'), any('value_keys', { default: null })],
    vars: SETTINGS_VARS,
    returns: nothing(),
  })
  async setSettings(clientId: number, vars: Record<string, unknown>, valueKeys: unknown) {
    await this.client(clientId);
    await assertValid(
      vars,
      ownSettingsRules(vars, (key) => `vars[${key}]`),
    );
    await setOwnSettings(this.ctx.db, 'client', clientId, vars, valueKeys, this.ctx.systemKey);
    return null;
  }

  @callable({
    description: `Set the settings a client may change itself (${CLIENT_EDITABLE_SETTINGS.join(', ')}); other keys of vars are ignored.`,
    verb: 'POST',
    params: [int('client_id'), object('vars')],
    vars: SETTINGS_VARS,
    returns: nothing(),
  })
  async setClientSettings(clientId: number, vars: Record<string, unknown>) {
    await this.client(clientId);
    await setOwnSettings(this.ctx.db, 'client', clientId, vars, CLIENT_EDITABLE_SETTINGS, this.ctx.systemKey);
    return null;
  }

  @callable({ description: "Remove one of the client's own settings (the inherited value applies again).", verb: 'DELETE', params: [int('client_id'), string('key')], returns: nothing() })
  async unsetSetting(clientId: number, key: string) {
    await this.client(clientId);
    await unsetOwnSettings(this.ctx.db, 'client', clientId, key);
    return null;
  }

  @callable({ description: "Remove every setting of the client's own.", verb: 'DELETE', params: [int('client_id')], returns: nothing() })
  async unsetSettings(clientId: number) {
    await this.client(clientId);
    await unsetOwnSettings(this.ctx.db, 'client', clientId);
    return null;
  }

  @callable({
    description:
      'Add a staff note to a client: vars[title], optional vars[description] and vars[stickied] (true: shown on top). staff_id is a staff member of the company, or 0 for none. Returns the note id.',
    verb: 'POST',
    params: [int('client_id'), int('staff_id'), object('vars')],
    vars: NOTE_ADD,
    returns: count({ description: 'The new note id.' }),
  })
  async addNote(clientId: number, staffId: number, vars: Record<string, unknown>) {
    await this.client(clientId);
    const author = await noteAuthor(this.ctx.db, this.ctx.companyId, staffId);
    await assertValid(vars, noteRules(false));
    const now = formatUtc(new Date());
    const row = await this.ctx.db
      .insertInto('client_notes')
      .values({ title: '', ...noteValues(vars), client_id: clientId, staff_id: author, date_added: now, date_updated: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  @callable({ description: 'Change vars[title], vars[description] or vars[stickied] of a note.', verb: 'PUT', params: [int('note_id'), object('vars')], vars: NOTE_EDIT, returns: nothing() })
  async editNote(noteId: number, vars: Record<string, unknown>) {
    if (!(await this.getNote(noteId))) throw invalidNote();
    await assertValid(vars, noteRules(true));
    await this.ctx.db
      .updateTable('client_notes')
      .set({ ...noteValues(vars), date_updated: formatUtc(new Date()) })
      .where('id', '=', noteId)
      .execute();
    return null;
  }

  @callable({ description: 'Delete a note.', verb: 'DELETE', params: [int('note_id')], returns: nothing() })
  async deleteNote(noteId: number) {
    if (!(await this.getNote(noteId))) throw invalidNote();
    await this.ctx.db.deleteFrom('client_notes').where('id', '=', noteId).execute();
    return null;
  }

  @callable({ description: 'One note; false when the company has no such note.', verb: 'GET', params: [int('note_id')], returns: orFalse(NOTE) })
  async getNote(noteId: number) {
    const row = await noteQuery(this.ctx.db, this.ctx.companyId).where('client_notes.id', '=', noteId).executeTakeFirst();
    return row ? presentNote(row) : false;
  }

  @callable({
    description: "One page (25) of a client's notes; order_by[field]=ASC|DESC over date_added, date_updated, title, id.",
    verb: 'GET',
    params: [int('client_id'), int('page', { default: 1 }), object('order_by', { default: { date_added: 'DESC' } })],
    returns: listOf(NOTE),
  })
  async getNoteList(clientId: number, page: number, orderBy: unknown) {
    const query = noteQuery(this.ctx.db, this.ctx.companyId).where('client_notes.client_id', '=', clientId);
    const rows = await ordered(query, readOrder(orderBy, NOTE_ORDER), 'client_notes.id').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
    return rows.map(presentNote);
  }

  @callable({ description: 'How many notes a client has.', verb: 'GET', params: [int('client_id')], returns: count() })
  async getNoteListCount(clientId: number) {
    const row = await noteQuery(this.ctx.db, this.ctx.companyId)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('client_notes.client_id', '=', clientId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  @callable({
    description: "A client's sticky notes, newest first; at most max_limit of them when given.",
    verb: 'GET',
    params: [int('client_id'), int('max_limit', { default: null })],
    returns: listOf(NOTE),
  })
  async getAllStickyNotes(clientId: number, maxLimit: number | null) {
    let query = noteQuery(this.ctx.db, this.ctx.companyId)
      .where('client_notes.client_id', '=', clientId)
      .where('client_notes.stickied', '=', 1)
      .orderBy('client_notes.date_added', 'desc')
      .orderBy('client_notes.id', 'desc');
    if (maxLimit !== null) query = query.limit(Math.max(0, maxLimit));
    return (await query.execute()).map(presentNote);
  }

  @callable({ description: 'Make a note no longer sticky.', verb: 'POST', params: [int('note_id')], returns: nothing() })
  async unstickyNote(noteId: number) {
    if (!(await this.getNote(noteId))) throw invalidNote();
    await this.ctx.db.updateTable('client_notes').set({ stickied: 0 }).where('id', '=', noteId).execute();
    return null;
  }
}
