/**
 * A plugin subscribed to two event types (the specs hand its consumer events directly): it records
 * each event it handles, as which company, with what it could read of the client the payload
 * names; the payload says whether to fail once, always, or hang.
 */
export const LISTENER_MANIFEST = { events: ['Clients.add', 'Services.suspend'], uses: ['clients.get'], tables: ['listener_seen'] };

export const LISTENER = `
class Seen {
  constructor(ctx) { this.ctx = ctx; }
  list() { return this.ctx.db.selectFrom('listener_seen').select(['event_id', 'type', 'event_company', 'ctx_company', 'detail']).orderBy('id').execute(); }
}
Seen.callable = { list: { verb: 'GET' } };
exports.models = { seen: Seen };
exports.migrations = { '001_seen': {
  up: (db, kit) => db.schema.createTable('listener_seen').addColumn('id', kit.idType(), (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull()).addColumn('event_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(64)', (c) => c.notNull()).addColumn('event_company', 'integer', (c) => c.notNull())
    .addColumn('ctx_company', 'integer', (c) => c.notNull()).addColumn('detail', 'varchar(255)', (c) => c.notNull()).execute(),
  down: (db) => db.schema.dropTable('listener_seen').execute(),
} };
const failed = {};
const record = (ctx, event, detail) => ctx.db.insertInto('listener_seen').values({ event_id: event.id, type: event.type, event_company: event.companyId, ctx_company: ctx.companyId, detail }).execute();
async function handle(ctx, event) {
  const p = event.payload || {};
  if (p.fail === 'hang') return new Promise(() => {});
  if (p.fail === 'always' || (p.fail === 'once' && !failed[event.id])) {
    failed[event.id] = true;
    await record(ctx, event, 'written before the throw');
    throw new Error('the handler failed');
  }
  let detail = 'no client';
  if (p.client_id) {
    const client = await ctx.models.clients.get({ client_id: p.client_id }).catch(() => null);
    detail = client ? 'client ' + client.first_name : 'client not found';
  }
  await record(ctx, event, detail);
}
exports.events = { 'Clients.add': handle, 'Services.suspend': handle };
`;
