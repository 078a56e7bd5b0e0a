import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one test server: a SQLite file in a temporary folder, or, when
 * DATABASE_URL names PostgreSQL, a new database on that server (dropped afterwards).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = process.env.DATABASE_URL;
  if (admin && /^postgres(ql)?:\/\//.test(admin)) {
    const name = `tally_spec_${randomBytes(6).toString('hex')}`;
    await withClient(admin, (c) => c.query(`CREATE DATABASE ${name}`));
    const url = new URL(admin);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      drop: () => withClient(admin, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-spec-'));
  return {
    url: path.join(dir, 'tally.sqlite'),
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

async function withClient<T>(url: string, work: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
