import { expect } from 'chai';
import { Kysely, Migrator, sql } from 'kysely';
import { connect } from '../../../core/db/connect';
import { isPostgres } from '../../../core/db/is-postgres';
import { migrations } from '../../../core/db/migrations';
import { Installation } from '../../../core/installation';
import { addClient, call, ok } from '../../host/api/billing/fixtures';
import { createTestDatabase, TestDatabase } from '../../support/test-database';
import { startTestServer, TestServer } from '../../support/test-server';

/** A deleted record's id is never given to a new one, on SQLite as on PostgreSQL, upgraded databases included. */
describe('ids are never reused', () => {
  describe('through the API', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(() => server.close());

    it('a client, a user and a client group deleted, the next one gets a new id', async () => {
      const client = await addClient(server);
      await ok(server, 'DELETE', 'clients/delete', { client_id: client });
      expect(await addClient(server)).to.be.greaterThan(client);

      const user = (n: number) => ({ vars: { username: `reused${n}`, new_password: 'secret12', confirm_password: 'secret12' } });
      const first = await ok(server, 'POST', 'users/add', user(1));
      expect((await call(server, 'DELETE', 'users/delete', { user_id: first })).status).to.equal(200);
      expect(await ok(server, 'POST', 'users/add', user(2))).to.be.greaterThan(first);

      const group = await ok(server, 'POST', 'client_groups/add', { vars: { name: 'Gone' } });
      await ok(server, 'DELETE', 'client_groups/delete', { client_group_id: group });
      expect(await ok(server, 'POST', 'client_groups/add', { vars: { name: 'New' } })).to.be.greaterThan(group);
    });

    it('every SQLite table with an id column declares AUTOINCREMENT', async function () {
      const db = server.installation.db as unknown as Kysely<any>;
      if (isPostgres(db)) return this.skip();
      const tables = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master where type = 'table' and sql like '%"id" integer%primary key%'`.execute(db);
      expect(tables.rows.length).to.be.greaterThan(20);
      expect(tables.rows.filter((t) => !/primary key autoincrement/i.test(t.sql)).map((t) => t.name)).to.deep.equal([]);
    });
  });

  describe('an existing SQLite database, upgraded', () => {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase();
    });
    after(() => database.drop());

    it("keeps every row, index and foreign key, and gives the deleted newest client's id to no one", async function () {
      const connection = connect(database.url);
      const db = connection.db as unknown as Kysely<any>;
      let schemaBefore: string[];
      let tablesBefore: Set<string>;
      try {
        if (isPostgres(db)) return this.skip();
        const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '012'));
        expect((await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest()).error).to.equal(undefined);
        await db.insertInto('companies').values({ name: 'Old', hostname: null, date_added: '2020-01-01 00:00:00' }).execute();
        for (let i = 0; i < 3; i++) await db.insertInto('clients').values({ company_id: 1, status: 'active', date_added: '2020-01-01 00:00:00', id_format: '{num}', client_group_id: null }).execute();
        await db.deleteFrom('clients').where('id', '=', 3).execute();
        tablesBefore = new Set((await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)).rows.map((r) => r.name));
        schemaBefore = await indexesAndReferences(db, tablesBefore);
      } finally {
        await db.destroy();
      }
      const installation = await Installation.open({ databaseUrl: database.url });
      try {
        const after = installation.db as unknown as Kysely<any>;
        // Tables and indexes later migrations add are theirs to check (020 indexes invoice_delivery
        // anew): the rebuild must keep what was there.
        expect(await indexesAndReferences(after, tablesBefore!)).to.include.members(schemaBefore!);
        expect((await after.selectFrom('clients').select('id').orderBy('id').execute()).map((r) => r.id)).to.deep.equal([1, 2]);
        const added = await after
          .insertInto('clients')
          .values({ company_id: 1, status: 'active', date_added: '2020-01-01 00:00:00', id_format: '{num}', client_group_id: null })
          .returning('id')
          .executeTakeFirstOrThrow();
        expect(added.id).to.equal(3); // 2 was the largest before the upgrade: SQLite had forgotten 3.
        await after.deleteFrom('clients').where('id', '=', 3).execute();
        const next = await after
          .insertInto('clients')
          .values({ company_id: 1, status: 'active', date_added: '2020-01-01 00:00:00', id_format: '{num}', client_group_id: null })
          .returning('id')
          .executeTakeFirstOrThrow();
        expect(next.id).to.equal(4);
        expect((await sql`pragma foreign_keys`.execute(after)).rows).to.deep.equal([{ foreign_keys: 1 }]);
      } finally {
        await installation.close();
      }
    });
  });
});

/** Every index's definition and every foreign key of `tables`: what the rebuild must keep. */
async function indexesAndReferences(db: Kysely<any>, tables: ReadonlySet<string>): Promise<string[]> {
  const indexes = (await sql<{ sql: string; tbl_name: string }>`select sql, tbl_name from sqlite_master where type = 'index' and sql is not null order by name`.execute(db)).rows.filter((r) =>
    tables.has(r.tbl_name),
  );
  const names = (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db)).rows.filter((r) => tables.has(r.name));
  const references: string[] = [];
  for (const { name } of names) {
    const keys = await sql<{ table: string; from: string; to: string }>`select * from pragma_foreign_key_list(${name})`.execute(db);
    for (const key of keys.rows) references.push(`${name}.${key.from} -> ${key.table}.${key.to}`);
  }
  return [...indexes.map((r) => r.sql), ...references.sort()];
}
