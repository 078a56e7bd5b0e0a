import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, TestServer } from '../../../support/test-server';
import { ok } from '../../../host/api/billing/fixtures';
import { migrations } from '../../../../core/db/migrations';

describe('settings: versions', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it("answers the installation's version, the database's last migration, and that a migrated database is not upgradable", async () => {
    const { version } = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../../../package.json'), 'utf8'));
    expect(await ok(server, 'GET', 'settings/getVersion')).to.equal(version);
    expect(await ok(server, 'GET', 'settings/getDbVersion')).to.equal(Object.keys(migrations).sort().at(-1));
    expect(await ok(server, 'GET', 'settings/upgradable')).to.equal(false);
  });

  it('is upgradable while the database has not run a migration this build knows', async () => {
    const last = Object.keys(migrations).sort().at(-1)!;
    const db = server.installation.db as any;
    const row = await db.selectFrom('kysely_migration').selectAll().where('name', '=', last).executeTakeFirstOrThrow();
    await db.deleteFrom('kysely_migration').where('name', '=', last).execute();
    try {
      expect(await ok(server, 'GET', 'settings/upgradable')).to.equal(true);
      expect(await ok(server, 'GET', 'settings/getDbVersion')).to.not.equal(last);
    } finally {
      await db.insertInto('kysely_migration').values(row).execute();
    }
    expect(await ok(server, 'GET', 'settings/upgradable')).to.equal(false);
  });
});
