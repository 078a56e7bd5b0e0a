import { Tx } from '../db/schema';

/**
 * The group the reference creates with every company. Its consumers add clients with
 * `vars[client_group_id]` set to it straight after installing (1 on a fresh installation), so a
 * company without one answered their first call with 400 "Invalid client group ID".
 */
export const DEFAULT_CLIENT_GROUP = { name: 'General', description: 'The default client group.', color: 'e1e1e1' } as const;

/** Gives a company the default group unless it has a group already; safe to run twice. */
export async function seedDefaultClientGroup(db: Tx, companyId: number): Promise<void> {
  const existing = await db.selectFrom('client_groups').select('id').where('company_id', '=', companyId).limit(1).executeTakeFirst();
  if (!existing)
    await db
      .insertInto('client_groups')
      .values({ company_id: companyId, ...DEFAULT_CLIENT_GROUP })
      .execute();
}
