import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

export interface ScratchDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database, for a spec server or a benchmark: a SQLite file in a temporary folder,
 * or, given a PostgreSQL server URL, a new database on that server (dropped by `drop`).
 */
export async function createScratchDatabase(postgresServerUrl?: string, prefix = 'tally_scratch'): Promise<ScratchDatabase> {
  if (postgresServerUrl && /^postgres(ql)?:\/\//.test(postgresServerUrl)) {
    const name = `${prefix}_${randomBytes(6).toString('hex')}`;
    await withClient(postgresServerUrl, (c) => c.query(`CREATE DATABASE ${name}`));
    const url = new URL(postgresServerUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      drop: () => withClient(postgresServerUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
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
