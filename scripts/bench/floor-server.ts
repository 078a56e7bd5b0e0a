import cluster from 'node:cluster';
import SQLite from 'better-sqlite3';
import Koa from 'koa';
import { Pool } from 'pg';

/**
 * Usage: node floor-server.js <database-url> <port> [processes]. The floor of the stack under
 * users/get.json: a Koa route answering `GET /users?id=` with the row users/get answers (the same
 * columns of the same user, in the same `{"response": ...}` JSON) from one prepared statement, on
 * SQLite one better-sqlite3 connection, on PostgreSQL one `pg` query (a named, prepared one) on a
 * connection of a pool the size of Tally's (DATABASE_POOL, default 10).
 *
 * It does only what no server answering that read can skip: no credential check, no routing,
 * no tenancy condition on the row, no parameter validation, no Request-Id or log line. Tally's
 * ratio to it is what all of those cost together; the Kysely baseline (bare-server.ts) measures
 * Tally against its own database layer instead.
 */
const [databaseUrl, port, processes = '1'] = process.argv.slice(2);

const SELECT_USER = 'select id, username, recovery_email, two_factor_mode, date_added from users where id = ';

type ReadUser = (id: number) => Promise<unknown>;

function sqliteRead(url: string): { read: ReadUser; close(): Promise<void> } {
  const sqlite = new SQLite(url.replace(/^sqlite:/, ''), { fileMustExist: true });
  sqlite.pragma('journal_mode = WAL');
  const statement = sqlite.prepare(`${SELECT_USER}?`);
  return { read: async (id) => statement.get(id), close: async () => void sqlite.close() };
}

function postgresRead(url: string): { read: ReadUser; close(): Promise<void> } {
  const pool = new Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL ?? 10) });
  const read = async (id: number) => (await pool.query({ name: 'floor_user', text: `${SELECT_USER}$1`, values: [id] })).rows[0];
  return { read, close: () => pool.end() };
}

if (cluster.isPrimary && Number(processes) > 1) {
  for (let i = 0; i < Number(processes); i++) cluster.fork();
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    process.exit(0);
  });
} else {
  const database = /^postgres(ql)?:\/\//.test(databaseUrl) ? postgresRead(databaseUrl) : sqliteRead(databaseUrl);
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.method !== 'GET' || ctx.path !== '/users') ctx.throw(404);
    ctx.body = { response: (await database.read(Number(ctx.query.id))) ?? false };
  });
  app.listen(Number(port), '127.0.0.1');
  process.on('SIGTERM', () => database.close().finally(() => process.exit(0)));
}
