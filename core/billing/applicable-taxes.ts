import { idIn } from '../db/id-list';
import { Tx } from '../db/schema';
import { stored } from '../kernel/money';
import { reusedSelect } from '../kernel/reused-select';
import { systemDecrypt } from '../kernel/system-cipher';
import { TaxRule } from './totals';
import { truthy } from './values';

export interface Location {
  readonly country: string | null;
  readonly state: string | null;
}

/** A client of the company where it is (its taxes depend on its settings too). */
export interface TaxedClient extends Location {
  readonly id: number;
}

/**
 * The taxes a client pays: none when it is tax exempt (taxExemptClients); else for each level (1
 * and 2, as in the reference system), the company's active tax that matches the client's address
 * most closely: country and state, else the whole country, else everywhere. A client without a
 * country pays only taxes that apply everywhere.
 */
export async function applicableTaxes(db: Tx, companyId: number, client: TaxedClient, systemKey: string): Promise<TaxRule[]> {
  if ((await taxExemptClients(db, companyId, [client.id], systemKey)).size) return [];
  return taxesFor(await activeTaxes(db, companyId), client);
}

/**
 * Which of the clients are tax exempt: the reference's `tax_exempt` client setting (`true`), the
 * client's own value, else its group's (settings inherit client > client group), as
 * `clients/setSetting` or `clients/create`'s `vars[settings]` and `client_groups/setSetting` store
 * it. Their taxable lines are charged no tax.
 */
export async function taxExemptClients(db: Tx, companyId: number, clientIds: readonly number[], systemKey: string): Promise<Set<number>> {
  if (!clientIds.length) return new Set();
  const clients = await db
    .selectFrom('clients')
    .select(['id', 'client_group_id'])
    .where('company_id', '=', companyId)
    .where('id', 'in', [...clientIds])
    .execute();
  const groupIds = [...new Set(clients.map((c) => c.client_group_id).filter((id): id is number => id !== null))];
  const rows = await db
    .selectFrom('owner_settings')
    .select(['owner', 'owner_id', 'value', 'encrypted'])
    .where('key', '=', 'tax_exempt')
    .where((eb) => eb.or([eb.and([eb('owner', '=', 'client'), idIn(db, 'owner_id', clientIds)]), eb.and([eb('owner', '=', 'client_group'), idIn(db, 'owner_id', groupIds)])]))
    .execute();
  const value = (owner: string, id: number | null) => {
    const row = rows.find((r) => r.owner === owner && r.owner_id === id);
    return row && (row.encrypted ? systemDecrypt(row.value, systemKey) : row.value);
  };
  return new Set(clients.filter((c) => truthy(value('client', c.id) ?? value('client_group', c.client_group_id) ?? 'false')).map((c) => c.id));
}

/** The company's active taxes, in id order: what taxesFor chooses from (read once for many clients). */
export const activeTaxes = reusedSelect((db: Tx, companyId: number) =>
  db.selectFrom('taxes').select(['id', 'level', 'name', 'rate', 'type', 'country', 'state']).where('company_id', '=', companyId).where('status', '=', 'active').orderBy('id'),
);

/** The taxes of `activeTaxes` a client at `where` pays, one per level. */
export function taxesFor(rows: Awaited<ReturnType<typeof activeTaxes>>, where: Location): TaxRule[] {
  const best = new Map<number, { row: (typeof rows)[number]; score: number }>();
  for (const row of rows) {
    const score = matchScore(row, where);
    if (score < 0) continue;
    const current = best.get(row.level);
    if (!current || score > current.score) best.set(row.level, { row, score });
  }
  return [...best.keys()]
    .sort((a, b) => a - b)
    .map((level) => {
      const { row } = best.get(level)!;
      return { id: row.id, level: row.level, name: row.name, rate: stored(row.rate), type: row.type === 'inclusive' ? 'inclusive' : 'exclusive' };
    });
}

/** -1: does not apply; 0: everywhere; 1: the client's country; 2: the client's country and state. */
function matchScore(tax: { country: string | null; state: string | null }, where: Location): number {
  if (tax.country === null) return 0;
  if (tax.country !== where.country) return -1;
  if (tax.state === null) return 1;
  return tax.state === where.state ? 2 : -1;
}
