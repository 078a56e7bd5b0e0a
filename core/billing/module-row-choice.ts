import { Tx } from '../db/schema';
import { FieldErrors } from '../kernel/errors';
import { is } from '../kernel/input-rules';

/**
 * The module row a new service goes on, from services/add's vars[module_row_id] (a row of the
 * package's module) or vars[module_group_id] (a group of it: its first row, or with add_order
 * roundrobin the row after the one the group's last service went on). Neither given: none. Rows and
 * groups are looked up in the company's own, so another company's id is simply invalid.
 */
export async function chooseModuleRow(db: Tx, companyId: number, moduleName: string | null, vars: Record<string, unknown>): Promise<{ rowId: number | null; errors: FieldErrors }> {
  const given = (key: string) => vars[key] !== undefined && vars[key] !== null && vars[key] !== '';
  if (!given('module_row_id') && !given('module_group_id')) return { rowId: null, errors: {} };
  const installed = moduleName
    ? await db.selectFrom('extensions_installed').select('id').where('company_id', '=', companyId).where('type', '=', 'module').where('name', '=', moduleName).executeTakeFirst()
    : undefined;
  if (given('module_row_id')) {
    const row =
      installed && is.integer(vars.module_row_id)
        ? await db.selectFrom('module_rows').select('id').where('company_id', '=', companyId).where('module_id', '=', installed.id).where('id', '=', Number(vars.module_row_id)).executeTakeFirst()
        : undefined;
    return row ? { rowId: row.id, errors: {} } : { rowId: null, errors: { module_row_id: { exists: "Invalid module row ID: it must be a row of the package's module." } } };
  }
  const group =
    installed && is.integer(vars.module_group_id)
      ? await db
          .selectFrom('module_groups')
          .select(['id', 'add_order'])
          .where('company_id', '=', companyId)
          .where('module_id', '=', installed.id)
          .where('id', '=', Number(vars.module_group_id))
          .executeTakeFirst()
      : undefined;
  if (!group) return { rowId: null, errors: { module_group_id: { exists: "Invalid module group ID: it must be a group of the package's module." } } };
  const rows = (await db.selectFrom('module_row_groups').select('module_row_id').where('module_group_id', '=', group.id).orderBy('module_row_id').execute()).map((r) => r.module_row_id);
  if (!rows.length) return { rowId: null, errors: { module_group_id: { empty: 'The module group has no rows to add a service on.' } } };
  if (group.add_order !== 'roundrobin') return { rowId: rows[0], errors: {} };
  const last = await db.selectFrom('services').select('module_row_id').where('company_id', '=', companyId).where('module_row_id', 'in', rows).orderBy('id', 'desc').executeTakeFirst();
  const next = last?.module_row_id == null ? 0 : (rows.indexOf(last.module_row_id) + 1) % rows.length;
  return { rowId: rows[next], errors: {} };
}
