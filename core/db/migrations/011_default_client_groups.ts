import { Kysely } from 'kysely';

/**
 * Every company has the reference's default client group: companies made before companies/add and
 * the first start created one are given it here (companies/add and the first start give it since,
 * core/models/client-groups/default-group.ts). Written out rather than imported: a migration keeps
 * doing what it did when it shipped, and the schema layer does not import models.
 */
const DEFAULT_CLIENT_GROUP = { name: 'General', description: 'The default client group.', color: 'e1e1e1' };

export async function up(db: Kysely<any>): Promise<void> {
  const bare = await db
    .selectFrom('companies')
    .select('companies.id')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('client_groups').select('client_groups.id').whereRef('client_groups.company_id', '=', 'companies.id'))))
    .orderBy('companies.id')
    .execute();
  for (const { id } of bare)
    await db
      .insertInto('client_groups')
      .values({ company_id: id, ...DEFAULT_CLIENT_GROUP })
      .execute();
}

/** The groups given here stay: clients may have joined them since. */
export async function down(): Promise<void> {}
