import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { sql } from 'kysely';
import { connect } from '../../../core/db/connect';

/** An acknowledged write survives a power loss: SQLite runs synchronous=FULL unless told otherwise. */
describe('SQLite durability settings', () => {
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-sync-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function pragmas(options: Parameters<typeof connect>[1]) {
    const { db } = connect(path.join(dir, 'tally.sqlite'), options);
    try {
      const read = async (name: string) => Object.values((await sql.raw(`pragma ${name}`).execute(db)).rows[0] as object)[0];
      return { synchronous: await read('synchronous'), busyTimeout: await read('busy_timeout'), journal: await read('journal_mode') };
    } finally {
      await db.destroy();
    }
  }

  it('uses synchronous=FULL (2) by default, WAL, and never waits for a lock inside SQLite (busy_timeout 0)', async () => {
    expect(await pragmas({ sqliteSynchronous: undefined })).to.deep.equal({ synchronous: 2, busyTimeout: 0, journal: 'wal' });
  });

  it('uses synchronous=NORMAL (1) when TALLY_SQLITE_SYNCHRONOUS says so', async () => {
    expect((await pragmas({ sqliteSynchronous: 'NORMAL' })).synchronous).to.equal(1);
  });
});
