import { Selectable } from 'kysely';
import { Tx } from '../db/schema';
import { ModuleRowsTable } from '../db/module-rows-schema';
import { SettingDeclaration } from '../kernel/extension-catalog';
import { decodeSettings, encodeSettings, publicSettings, SettingValues } from '../kernel/extension-settings-codec';

export type ModuleRow = Selectable<ModuleRowsTable>;

/** The company's installed module with this id (its directory name), or undefined: another company's reads as none. */
export function findInstalledModule(db: Tx, companyId: number, moduleId: number) {
  return db.selectFrom('extensions_installed').select(['id', 'name']).where('company_id', '=', companyId).where('type', '=', 'module').where('id', '=', moduleId).executeTakeFirst();
}

/** A module row as the API answers it: plain fields in `meta`, secret ones only named in `secrets_set`. */
export interface PublicModuleRow {
  id: number;
  module_id: number;
  meta: SettingValues;
  secrets_set: string[];
  date_added: string;
}

/**
 * The module rows (servers) of one company, stored as extension settings are: a JSON object of the
 * row's fields whose secret values are systemEncrypt'ed, with the list of those keys beside it so
 * a row decodes the same whatever its module's manifest says today. Every read and write is
 * narrowed to the company, so another company's row id reads as no row.
 */
export class ModuleRowStore {
  constructor(
    private readonly db: Tx,
    private readonly companyId: number,
    private readonly systemKey: string,
  ) {}

  /** The rows of a module, optionally only those of one group, oldest first. */
  rows(moduleId: number, groupId: number | null = null): Promise<ModuleRow[]> {
    let query = this.db.selectFrom('module_rows').selectAll('module_rows').where('module_rows.company_id', '=', this.companyId).where('module_rows.module_id', '=', moduleId);
    if (groupId !== null) {
      query = query.innerJoin('module_row_groups', 'module_row_groups.module_row_id', 'module_rows.id').where('module_row_groups.module_group_id', '=', groupId);
    }
    return query.orderBy('module_rows.id').execute();
  }

  row(id: number): Promise<ModuleRow | undefined> {
    return this.db.selectFrom('module_rows').selectAll().where('company_id', '=', this.companyId).where('id', '=', id).executeTakeFirst();
  }

  async add(moduleId: number, values: SettingValues, declared: Readonly<Record<string, SettingDeclaration>>, now: string): Promise<number> {
    const row = await this.db
      .insertInto('module_rows')
      .values({ company_id: this.companyId, module_id: moduleId, ...this.encode(values, declared), date_added: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, values: SettingValues, declared: Readonly<Record<string, SettingDeclaration>>): Promise<void> {
    await this.db.updateTable('module_rows').set(this.encode(values, declared)).where('company_id', '=', this.companyId).where('id', '=', id).execute();
  }

  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('module_row_groups').where('module_row_id', '=', id).execute();
    await this.db.deleteFrom('module_rows').where('company_id', '=', this.companyId).where('id', '=', id).execute();
  }

  /** Every field in clear: what the module itself receives, never what the API answers. */
  decoded(row: ModuleRow): SettingValues {
    return decodeSettings(row.meta, secretsOf(row), this.systemKey);
  }

  present(row: ModuleRow): PublicModuleRow {
    const { settings, secrets_set } = publicSettings(row.meta, secretsOf(row));
    return { id: row.id, module_id: row.module_id, meta: settings, secrets_set, date_added: row.date_added };
  }

  private encode(values: SettingValues, declared: Readonly<Record<string, SettingDeclaration>>) {
    const secretKeys = Object.keys(values).filter((key) => declared[key]?.secret && values[key] !== '');
    const secrets = Object.fromEntries(secretKeys.map((key) => [key, { secret: true }]));
    return { meta: encodeSettings(values, secrets, this.systemKey), secret_keys: JSON.stringify(secretKeys) };
  }
}

/** The declarations a stored row decodes with: its own list of secret keys. */
function secretsOf(row: ModuleRow): Record<string, SettingDeclaration> {
  const keys: unknown = JSON.parse(row.secret_keys || '[]');
  return Object.fromEntries((Array.isArray(keys) ? keys : []).map((key) => [String(key), { secret: true }]));
}
