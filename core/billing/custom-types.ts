import { Kysely } from 'kysely';
import { Tx } from '../db/schema';
import { assertValid, is, Rule, RuleSet } from '../kernel/input-rules';
import { TallyError } from '../kernel/tally-error';
import { truthy, wholeNumber } from './values';

/** The tables of a company's own types: contact types and transaction types (which add a debit/credit `type`). */
type TypeTable = 'contact_types' | 'transaction_types';
const TYPE_COLUMNS = { contact_types: ['id', 'company_id', 'name', 'is_lang'], transaction_types: ['id', 'company_id', 'type', 'name', 'is_lang'] } as const;
export const DEBIT_TYPES = { debit: 'Debit', credit: 'Credit' };

/**
 * A company's own contact or transaction types, as the reference's addType/editType/deleteType/
 * getType/getTypes keep them. `idName` is how the reference names the id parameter
 * (`contact_type_id`, `type_id`), so errors name what the caller sent.
 */
export class CustomTypes {
  constructor(
    private readonly db: Tx,
    private readonly companyId: number,
    private readonly table: TypeTable,
    private readonly idName: string,
  ) {}

  async add(vars: Record<string, unknown>): Promise<number> {
    await assertValid(vars, this.rules(false));
    const row = await this.db
      .insertInto(this.table)
      .values({
        company_id: this.companyId,
        name: String(vars.name).trim(),
        is_lang: truthy(vars.is_lang) ? 1 : 0,
        ...(this.table === 'transaction_types' ? { type: String(vars.type) } : {}),
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async edit(id: number, vars: Record<string, unknown>): Promise<void> {
    await this.existing(id);
    await assertValid(vars, this.rules(true));
    const changes: Record<string, string | number> = {};
    if (vars.name !== undefined) changes.name = String(vars.name).trim();
    if (vars.is_lang !== undefined) changes.is_lang = truthy(vars.is_lang) ? 1 : 0;
    if (vars.type !== undefined && this.table === 'transaction_types') changes.type = String(vars.type);
    if (Object.keys(changes).length) await this.db.updateTable(this.table).set(changes).where('id', '=', id).execute();
  }

  /** Deletes a type; records that named it keep their built-in type and lose the link. */
  async delete(id: number): Promise<void> {
    await this.existing(id);
    if (this.table === 'contact_types') await this.db.updateTable('contacts').set({ contact_type_id: null }).where('contact_type_id', '=', id).execute();
    else await this.db.updateTable('transactions').set({ transaction_type_id: null }).where('transaction_type_id', '=', id).execute();
    await this.db.deleteFrom(this.table).where('id', '=', id).execute();
  }

  async get(id: number) {
    const row = await this.query().where('id', '=', id).executeTakeFirst();
    return row ? present(row) : (false as const);
  }

  async all() {
    return (await this.query().orderBy('name').orderBy('id').execute()).map(present);
  }

  /** The rule for a `*_type_id` given with a contact or a transaction: one of the company's types (blank: none). */
  exists(message: string): Rule {
    return { code: 'exists', message, check: async (v) => v === '' || v === null || (wholeNumber(v) !== null && !!(await this.get(wholeNumber(v)!))) };
  }

  private query() {
    // One helper for two tables of the same shape: typed loosely here, checked by the specs.
    const db = this.db as unknown as Kysely<Record<TypeTable, { id: number; company_id: number; name: string; type: string; is_lang: number }>>;
    return db
      .selectFrom(this.table)
      .select([...TYPE_COLUMNS[this.table]])
      .where('company_id', '=', this.companyId);
  }

  private async existing(id: number) {
    if (!(await this.get(id))) throw TallyError.invalid({ [this.idName]: { exists: 'Invalid type ID.' } });
  }

  private rules(ifSet: boolean): RuleSet {
    return {
      company_id: { ifSet: true, rules: [{ code: 'exists', message: 'Invalid company ID; a credential adds types to its own company.', check: (v) => wholeNumber(v) === this.companyId }] },
      name: {
        ifSet,
        rules: [
          { code: 'empty', message: 'Please enter a name.', check: is.present, final: true },
          { code: 'length', message: 'The name may be at most 128 characters long.', check: (v) => String(v).trim().length <= 128 },
        ],
      },
      ...(this.table === 'transaction_types' ? { type: { ifSet, rules: [{ code: 'format', message: 'The type must be debit or credit.', check: is.oneOf(Object.keys(DEBIT_TYPES)) }] } } : {}),
    };
  }
}

function present<T extends { is_lang: number }>(row: T) {
  return { ...row, is_lang: Boolean(row.is_lang) };
}
