import { Updateable } from 'kysely';
import { ClientFieldsTable } from '../../db/schema';
import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { assertValid } from '../../kernel/input-rules';
import { facet } from '../../kernel/model';
import { any, int, object } from '../../kernel/parameter';
import { systemDecrypt, systemEncrypt } from '../../kernel/system-cipher';
import { TallyError } from '../../kernel/tally-error';
import { optionalText, truthy, wholeNumber } from '../../billing/values';
import { requireClient } from '../../billing/client-store';
import { checkValue, FIELD_TYPES, fieldRules } from './custom-field-rules';
import { int as count, listOf, mapOf, nothing, orFalse, string as text } from '../../kernel/shape';
import { CUSTOM_FIELD, CUSTOM_FIELD_ADD, CUSTOM_FIELD_EDIT, CUSTOM_VALUE } from '../clients.fields';

const FIELD_COLUMNS = ['id', 'company_id', 'client_group_id', 'name', 'link', 'is_lang', 'type', 'values', 'default', 'regex', 'show_client', 'read_only', 'encrypted'] as const;
const FLAGS = ['is_lang', 'show_client', 'read_only', 'encrypted'] as const;

const invalidField = () => TallyError.invalid({ field_id: { exists: 'Invalid custom field ID.' } });

/**
 * Custom client fields, as the reference's Clients model has them: fields a company defines (for
 * all its clients or one client group) — text, textarea, checkbox or select, optionally checked by
 * a pattern, shown to clients, read-only or stored encrypted — and each client's values. A facet
 * of the clients model (clients.ts lists it), so these are `clients/...` methods.
 */
@facet('clients')
export class ClientCustomFields {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description:
      "Add a custom client field: vars[name], optional vars[client_group_id] (default: every group), vars[type] (text, checkbox, select, textarea; default text), vars[values] (a select's vars[values][option]=label; a checkbox's value), vars[default], vars[regex] (/pattern/flags), vars[link], vars[is_lang], vars[show_client], vars[read_only], vars[encrypted]. Returns its id.",
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: CUSTOM_FIELD_ADD,
    returns: count({ description: 'The new field id.' }),
  })
  async addCustomField(vars: Record<string, unknown>) {
    const type = optionalText(vars.type) ?? 'text';
    await assertValid(vars, fieldRules(this.ctx.db, this.ctx.companyId, false, type));
    const row = await this.ctx.db
      .insertInto('client_fields')
      .values({ company_id: this.ctx.companyId, name: '', type, ...fieldValues(vars) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  @callable({ description: 'Change any of the vars addCustomField takes. Returns the field id.', verb: 'PUT', params: [int('field_id'), object('vars')], vars: CUSTOM_FIELD_EDIT, returns: count() })
  async editCustomField(fieldId: number, vars: Record<string, unknown>) {
    const field = await this.getCustomField(fieldId, null);
    if (!field) throw invalidField();
    const type = optionalText(vars.type) ?? field.type;
    // A select needs its options whenever the type or the options change; otherwise they stay.
    const checkedAs = vars.type !== undefined || vars.values !== undefined ? type : 'unchanged';
    await assertValid(vars, fieldRules(this.ctx.db, this.ctx.companyId, true, checkedAs));
    const changes: Updateable<ClientFieldsTable> = fieldValues(vars);
    if (vars.type !== undefined) changes.type = type;
    if (Object.keys(changes).length) await this.ctx.db.updateTable('client_fields').set(changes).where('id', '=', fieldId).execute();
    return fieldId;
  }

  @callable({ description: "Delete a custom field and every client's value of it.", verb: 'DELETE', params: [int('field_id')], returns: nothing() })
  async deleteCustomField(fieldId: number) {
    if (!(await this.getCustomField(fieldId, null))) throw invalidField();
    await this.ctx.db.deleteFrom('client_values').where('client_field_id', '=', fieldId).execute();
    await this.ctx.db.deleteFrom('client_fields').where('id', '=', fieldId).execute();
    return null;
  }

  @callable({
    description: 'A custom field; false when the company has none with this id.',
    verb: 'GET',
    params: [int('field_id'), int('company_id', { default: null })],
    returns: orFalse(CUSTOM_FIELD),
  })
  async getCustomField(fieldId: number, companyId: number | null) {
    if (companyId !== null && companyId !== this.ctx.companyId) return false;
    const row = await this.ctx.db.selectFrom('client_fields').select(FIELD_COLUMNS).where('company_id', '=', this.ctx.companyId).where('id', '=', fieldId).executeTakeFirst();
    return row ? presentField(row) : (false as const);
  }

  @callable({
    description: "The company's custom fields (those of client_group_id and those of every group, when it is given); options[show_client] and options[read_only] (1 or 0) filter them.",
    verb: 'GET',
    params: [int('company_id'), int('client_group_id', { default: null }), object('options', { default: null })],
    returns: listOf(CUSTOM_FIELD),
  })
  async getCustomFields(companyId: number, clientGroupId: number | null, options: Record<string, unknown> | null) {
    let query = this.ctx.db.selectFrom('client_fields').select(FIELD_COLUMNS).where('company_id', '=', this.ctx.companyId).where('company_id', '=', companyId);
    if (clientGroupId !== null) query = query.where((eb) => eb.or([eb('client_group_id', '=', clientGroupId), eb('client_group_id', 'is', null)]));
    for (const flag of ['show_client', 'read_only'] as const) {
      if (options?.[flag] !== undefined && options[flag] !== '') query = query.where(flag, '=', truthy(options[flag]) ? 1 : 0);
    }
    return (await query.orderBy('id').execute()).map(presentField);
  }

  @callable({ description: 'The custom field types and their names.', verb: 'GET', returns: mapOf(text()) })
  async getCustomFieldTypes() {
    return FIELD_TYPES;
  }

  @callable({
    description: "A client's custom field values, each with its field ({id, client_id, value, name, type, ...}); false when it has none.",
    verb: 'GET',
    params: [int('client_id')],
    returns: orFalse(listOf(CUSTOM_VALUE)),
  })
  async getCustomFieldValues(clientId: number) {
    await requireClient(this.ctx.db, this.ctx.companyId, clientId);
    const rows = await this.ctx.db
      .selectFrom('client_values')
      .innerJoin('client_fields', 'client_fields.id', 'client_values.client_field_id')
      .select([...FIELD_COLUMNS.map((c) => `client_fields.${c}` as const), 'client_values.client_id', 'client_values.value', 'client_values.encrypted as value_encrypted'])
      .where('client_values.client_id', '=', clientId)
      .where('client_fields.company_id', '=', this.ctx.companyId)
      .orderBy('client_fields.id')
      .execute();
    if (!rows.length) return false;
    return rows.map(({ value, value_encrypted, ...field }) => ({ ...presentField(field), client_id: field.client_id, value: value_encrypted ? systemDecrypt(value, this.ctx.systemKey) : value }));
  }

  @callable({
    description: "Set a client's value of a custom field (checked against the field's options or pattern; stored encrypted when the field is).",
    verb: 'POST',
    params: [int('field_id'), int('client_id'), any('value')],
    returns: nothing(),
  })
  async setCustomField(fieldId: number, clientId: number, given: unknown) {
    const [field, client] = [await this.getCustomField(fieldId, null), await requireClient(this.ctx.db, this.ctx.companyId, clientId)];
    if (!field) throw invalidField();
    if (field.client_group_id !== null && field.client_group_id !== client.client_group_id) {
      throw TallyError.invalid({ field_id: { group: "The custom field belongs to another client group than the client's." } });
    }
    if (typeof given === 'object' && given !== null) throw TallyError.invalid({ value: { format: 'The value must be a single value.' } });
    const value = given === null || given === undefined ? '' : String(given);
    checkValue({ ...field, values: field.values === null ? null : JSON.stringify(field.values), read_only: field.read_only ? 1 : 0 }, value);
    const stored = field.encrypted ? systemEncrypt(value, this.ctx.systemKey) : value;
    await this.ctx.db
      .insertInto('client_values')
      .values({ client_field_id: fieldId, client_id: clientId, value: stored, encrypted: field.encrypted ? 1 : 0 })
      .onConflict((oc) => oc.columns(['client_field_id', 'client_id']).doUpdateSet({ value: stored, encrypted: field.encrypted ? 1 : 0 }))
      .execute();
    return null;
  }

  @callable({ description: "Remove a client's value of one custom field.", verb: 'DELETE', params: [int('client_field_id'), int('client_id')], returns: nothing() })
  async deleteCustomFieldValue(fieldId: number, clientId: number) {
    await requireClient(this.ctx.db, this.ctx.companyId, clientId);
    await this.ctx.db.deleteFrom('client_values').where('client_field_id', '=', fieldId).where('client_id', '=', clientId).execute();
    return null;
  }

  @callable({ description: 'Remove every custom field value of a client.', verb: 'DELETE', params: [int('client_id')], returns: nothing() })
  async deleteCustomFieldValues(clientId: number) {
    await requireClient(this.ctx.db, this.ctx.companyId, clientId);
    await this.ctx.db.deleteFrom('client_values').where('client_id', '=', clientId).execute();
    return null;
  }

  /** clients/create's vars[custom][field_id] = value (not callable). */
  async setCustomValues(clientId: number, custom: unknown) {
    if (!custom || typeof custom !== 'object') return;
    for (const [fieldId, value] of Object.entries(custom)) {
      const id = wholeNumber(fieldId);
      if (id === null) throw TallyError.invalid({ [`custom[${fieldId}]`]: { exists: 'Invalid custom field ID.' } });
      await this.setCustomField(id, clientId, value);
    }
  }
}

type Flags = Record<(typeof FLAGS)[number], number>;

/** A field as answered: flags as booleans, a select's options as an object. */
function presentField<T extends Flags & { values: string | null }>(row: T): Omit<T, keyof Flags | 'values'> & Record<keyof Flags, boolean> & { values: Record<string, string> | string | null } {
  const flags = Object.fromEntries(FLAGS.map((f) => [f, Boolean(row[f])])) as Record<keyof Flags, boolean>;
  return { ...row, ...flags, values: row.values === null ? null : (JSON.parse(row.values) as Record<string, string> | string) };
}

/** The columns a field's vars set. */
function fieldValues(vars: Record<string, unknown>): Updateable<ClientFieldsTable> {
  const values: Updateable<ClientFieldsTable> = {};
  if (vars.name !== undefined) values.name = String(vars.name).trim();
  if (vars.client_group_id !== undefined) values.client_group_id = wholeNumber(vars.client_group_id);
  for (const text of ['link', 'default', 'regex'] as const) if (vars[text] !== undefined) values[text] = optionalText(vars[text]);
  if (vars.values !== undefined) values.values = vars.values === null || vars.values === '' ? null : JSON.stringify(vars.values);
  for (const flag of FLAGS) if (vars[flag] !== undefined) values[flag] = truthy(vars[flag]) ? 1 : 0;
  return values;
}
