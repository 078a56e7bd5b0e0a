import { SettingDeclaration } from '../../../core/kernel/extension-catalog';
import { AdminRequest, callAs, hasCallable } from '../admin-request';
import { wholeNumberOr } from '../components/list-controls';
import { declaredRowFields } from '../extension-listing';

/** A module row (a server) as module_manager answers it: its plain fields, and which secret ones have a value. */
export interface ServerRow {
  readonly id: number;
  readonly module_id: number;
  readonly meta: Readonly<Record<string, string>>;
  readonly secrets_set: readonly string[];
  readonly date_added: string;
}

export interface ServerGroup {
  readonly id: number;
  readonly name: string;
  readonly add_order: string;
  readonly rows: readonly ServerRow[];
}

/** A module the company installed, with the row fields its manifest declares. */
export interface ServerModule {
  readonly id: number;
  readonly dir: string;
  readonly name: string;
  readonly fields: Readonly<Record<string, SettingDeclaration>>;
}

/** The company's installed modules (module_manager/getAll), each with its manifest's row fields. */
export async function installedModules(request: AdminRequest): Promise<ServerModule[]> {
  // An installation without the extension runtime has no module manager, and so no modules.
  if (!hasCallable(request.installation, 'module_manager', 'getAll')) return [];
  const all = (await callAs(request, 'module_manager', 'getAll', { company_id: request.company.id })) as Array<{ id: number | null; dir: string; name: string }>;
  return all.filter((m): m is { id: number; dir: string; name: string } => m.id !== null).map((m) => ({ id: m.id, dir: m.dir, name: m.name, fields: declaredRowFields(request, m.dir) }));
}

/** The installed module of an id from a query or form, or undefined (another company's is not installed here). */
export async function findModule(request: AdminRequest, id: unknown): Promise<ServerModule | undefined> {
  const moduleId = wholeNumberOr(id, 0);
  return moduleId ? (await installedModules(request)).find((m) => m.id === moduleId) : undefined;
}

/** A row of the company's by id from a query or form, with its module; undefined for another company's or none. */
export async function findRow(request: AdminRequest, id: unknown): Promise<{ row: ServerRow; module: ServerModule } | undefined> {
  const rowId = wholeNumberOr(id, 0);
  const row = rowId ? ((await callAs(request, 'module_manager', 'getRow', { module_row_id: rowId })) as ServerRow | false) : false;
  if (!row) return undefined;
  const module = await findModule(request, String(row.module_id));
  return module ? { row, module } : undefined;
}

/** What a row is called in lists: its name field, else its hostname, else its number. */
export function rowTitle(row: ServerRow): string {
  return row.meta.name || row.meta.hostname || `Server #${row.id}`;
}
