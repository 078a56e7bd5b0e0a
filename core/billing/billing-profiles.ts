import { createHash } from 'node:crypto';
import { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import { Database, Tx } from '../db/schema';
import { systemDecrypt } from '../kernel/system-cipher';
import { SETTINGS } from '../settings-catalogue';
import { BillingSettings, billingSettingsFrom, companySettingValues, OVERRIDABLE_KEYS } from './billing-settings';

/**
 * One set of effective billing settings and the clients billed by it. The billing settings
 * inherit as every setting does (client > client group > company): a company whose groups and
 * clients override none has one profile; each distinct set of overrides makes another.
 */
export interface BillingProfile {
  /** '' for the company's own settings; else a short name fixed by the settings' values (lease names carry it). */
  readonly name: string;
  readonly settings: BillingSettings;
  /** Whether this profile's settings are the client's. */
  includes(clientId: number): boolean;
}

/**
 * A company's billing profiles, the company's own first (it bills every client no other profile
 * names). One query for the overrides of the company's groups and clients, one for the clients
 * they reach: what a run or a list reads once, however many clients there are.
 */
export async function billingProfiles(db: Tx, companyId: number, systemKey: string): Promise<BillingProfile[]> {
  const company = await companySettingValues(db, companyId);
  const { byGroup, byClient } = await overrides(db, systemKey, (eb) =>
    eb.or([
      eb.and([eb('owner', '=', 'client_group'), eb('owner_id', 'in', eb.selectFrom('client_groups').select('id').where('company_id', '=', companyId))]),
      eb.and([eb('owner', '=', 'client'), eb('owner_id', 'in', eb.selectFrom('clients').select('id').where('company_id', '=', companyId))]),
    ]),
  );
  const companyProfile = { name: '', settings: billingSettingsFrom(company) };
  if (!byGroup.size && !byClient.size) return [{ ...companyProfile, includes: () => true }];
  const reached = await db
    .selectFrom('clients')
    .select(['id', 'client_group_id'])
    .where('company_id', '=', companyId)
    .where((eb) => eb.or([eb('id', 'in', [0, ...byClient.keys()]), eb('client_group_id', 'in', [0, ...byGroup.keys()])]))
    .execute();

  const companyKey = fingerprint(company);
  const profiles = new Map<string, { values: Map<string, string>; clients: Set<number> }>();
  for (const client of reached) {
    const values = inherited(company, byGroup.get(client.client_group_id ?? 0), byClient.get(client.id));
    const key = fingerprint(values);
    if (key === companyKey) continue;
    if (!profiles.has(key)) profiles.set(key, { values, clients: new Set() });
    profiles.get(key)!.clients.add(client.id);
  }
  const elsewhere = new Set([...profiles.values()].flatMap((p) => [...p.clients]));
  return [
    { ...companyProfile, includes: (clientId) => !elsewhere.has(clientId) },
    ...[...profiles.entries()].map(([name, p]) => ({ name, settings: billingSettingsFrom(p.values), includes: (clientId: number) => p.clients.has(clientId) })),
  ];
}

/** One client's effective billing settings (false when the company has no such client). */
export async function clientBillingSettings(db: Tx, companyId: number, clientId: number, systemKey: string): Promise<BillingSettings | false> {
  const client = await db.selectFrom('clients').select('client_group_id').where('company_id', '=', companyId).where('id', '=', clientId).executeTakeFirst();
  if (!client) return false;
  const groupId = client.client_group_id ?? 0;
  const { byGroup, byClient } = await overrides(db, systemKey, (eb) =>
    eb.or([eb.and([eb('owner', '=', 'client_group'), eb('owner_id', '=', groupId)]), eb.and([eb('owner', '=', 'client'), eb('owner_id', '=', clientId)])]),
  );
  return billingSettingsFrom(inherited(await companySettingValues(db, companyId), byGroup.get(groupId), byClient.get(clientId)));
}

type OwnerFilter = (eb: ExpressionBuilder<Database, 'owner_settings'>) => Expression<SqlBool>;

/** The overridable settings the owners the filter picks set, decrypted, by group and by client. */
async function overrides(db: Tx, systemKey: string, owners: OwnerFilter) {
  const rows = await db
    .selectFrom('owner_settings')
    .select(['owner', 'owner_id', 'key', 'value', 'encrypted'])
    .where('key', 'in', [...OVERRIDABLE_KEYS])
    .where(owners)
    .execute();
  const byGroup = new Map<number, Map<string, string>>();
  const byClient = new Map<number, Map<string, string>>();
  for (const row of rows) {
    const value = row.encrypted ? systemDecrypt(row.value, systemKey) : row.value;
    // A value the catalogue refuses (stored before values were checked) is no override.
    if (SETTINGS[row.key].check(value) !== null) continue;
    const byOwner = row.owner === 'client' ? byClient : byGroup;
    if (!byOwner.has(row.owner_id)) byOwner.set(row.owner_id, new Map());
    byOwner.get(row.owner_id)!.set(row.key, value);
  }
  return { byGroup, byClient };
}

/** Client > client group > company: the left one wins. */
function inherited(company: ReadonlyMap<string, string>, group?: ReadonlyMap<string, string>, client?: ReadonlyMap<string, string>): Map<string, string> {
  return new Map([...company, ...(group ?? []), ...(client ?? [])]);
}

/** A short name fixed by the effective values of the overridable keys (the same in every process). */
function fingerprint(values: ReadonlyMap<string, string>): string {
  const text = OVERRIDABLE_KEYS.map((key) => `${key}=${values.get(key) ?? SETTINGS[key].default}`).join('\n');
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}
