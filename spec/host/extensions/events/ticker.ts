/** A plugin with two scheduled tasks that record each run: which task, for which due time, as which company. */
export const TICKER_MANIFEST = { tasks: { every_five: 'every 5 minutes', nightly: 'daily at 03:00', broken: 'every 5 minutes' }, tables: ['ticker_runs'] };

export const TICKER = `
class Runs {
  constructor(ctx) { this.ctx = ctx; }
  list() { return this.ctx.db.selectFrom('ticker_runs').select(['task', 'due', 'ctx_company']).orderBy('id').execute(); }
}
Runs.callable = { list: { verb: 'GET' } };
exports.models = { runs: Runs };
exports.migrations = { '001_runs': {
  up: (db, kit) => db.schema.createTable('ticker_runs').addColumn('id', kit.idType(), (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull()).addColumn('task', 'varchar(64)', (c) => c.notNull())
    .addColumn('due', 'varchar(19)', (c) => c.notNull()).addColumn('ctx_company', 'integer', (c) => c.notNull()).execute(),
} };
const record = (ctx, run) => ctx.db.insertInto('ticker_runs').values({ task: run.task, due: run.due, ctx_company: ctx.companyId }).execute();
exports.tasks = {
  every_five: record,
  nightly: record,
  broken: async (ctx, run) => { await record(ctx, run); throw new Error('secret-in-the-message'); },
};
`;

/** The same plugin with one task, every minute: what two host processes tick at once. */
export const MINUTE_TICKER_MANIFEST = { tasks: { every_minute: 'every 1 minutes' }, tables: ['ticker_runs'] };
export const MINUTE_TICKER = `${TICKER.slice(0, TICKER.indexOf('exports.tasks = {'))}exports.tasks = { every_minute: record };\n`;
