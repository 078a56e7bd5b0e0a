import { Selectable } from 'kysely';
import { ExtensionsInstalledTable, Tx } from '../../db/schema';
import { ExtensionType } from '../../kernel/extension-catalog';

export type InstallRecord = Selectable<ExtensionsInstalledTable>;

/** The `extensions_installed` rows of one company, as the managers read and write them. */
export class InstallRecords {
  constructor(
    private readonly db: Tx,
    private readonly companyId: number,
  ) {}

  byId(type: ExtensionType, id: number): Promise<InstallRecord | undefined> {
    return this.db.selectFrom('extensions_installed').selectAll().where('id', '=', id).where('company_id', '=', this.companyId).where('type', '=', type).executeTakeFirst();
  }

  byName(type: ExtensionType, name: string): Promise<InstallRecord | undefined> {
    return this.base().where('type', '=', type).where('name', '=', name).executeTakeFirst();
  }

  /** Every extension this company has installed, of any type (dependencies cross types). */
  all(): Promise<InstallRecord[]> {
    return this.base().orderBy('id').execute();
  }

  async add(values: Omit<InstallRecord, 'id' | 'company_id'>): Promise<number> {
    const row = await this.db
      .insertInto('extensions_installed')
      .values({ ...values, company_id: this.companyId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, changes: Partial<Pick<InstallRecord, 'status' | 'settings' | 'version'>>): Promise<void> {
    await this.db.updateTable('extensions_installed').set(changes).where('id', '=', id).where('company_id', '=', this.companyId).execute();
  }

  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('extensions_installed').where('id', '=', id).where('company_id', '=', this.companyId).execute();
  }

  /** How many other companies still have this extension installed (its tables are shared). */
  async elsewhere(type: ExtensionType, name: string): Promise<number> {
    const row = await this.db
      .selectFrom('extensions_installed')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('type', '=', type)
      .where('name', '=', name)
      .where('company_id', '!=', this.companyId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  private base() {
    return this.db.selectFrom('extensions_installed').selectAll().where('company_id', '=', this.companyId);
  }
}
