import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { ExtensionsDir, manifest } from './fixtures';

/** Writes its own rows and, through a declared core method, the core's. */
const LEDGER = `
class Ledger {
  constructor(ctx) { this.ctx = ctx; }
  async record(text) {
    const id = Number((await this.ctx.db.insertInto('ledger_rows').values({ text }).returning('id').executeTakeFirstOrThrow()).id);
    const again = await this.ctx.db.selectFrom('ledger_rows').select('text').where('id', '=', id).executeTakeFirst();
    await this.ctx.db.updateTable('ledger_rows').set({ text: again.text + '!' }).where('id', '=', id).execute();
    return id;
  }
  async recordThenFail(text) { await this.record(text); throw new Error('after writing'); }
  async company(name) { return this.ctx.models.taxes.add({ vars: { name, rate: '5' } }); }
  async companyThenFail(name) { await this.company(name); throw new Error('after the core wrote'); }
  async rows() { return (await this.ctx.db.selectFrom('ledger_rows').select('text').orderBy('id').execute()).map((r) => r.text); }
  async writesInGet(text) { await this.ctx.db.insertInto('ledger_rows').values({ text }).execute(); return 'wrote'; }
}
const text = { params: [{ name: 'text', kind: 'string' }] };
Ledger.callable = { record: { verb: 'POST', ...text }, recordThenFail: { verb: 'POST', ...text }, company: { verb: 'POST', params: [{ name: 'name', kind: 'string' }] },
  companyThenFail: { verb: 'POST', params: [{ name: 'name', kind: 'string' }] }, rows: { verb: 'GET' }, writesInGet: { verb: 'GET', ...text } };
exports.models = { ledger: Ledger };
exports.migrations = { '001': {
  up: (db, kit) => db.schema.createTable('ledger_rows').addColumn('id', kit.idType(), (c) => c.primaryKey()).addColumn('company_id', 'integer', (c) => c.notNull()).addColumn('text', 'text', (c) => c.notNull()).execute(),
  down: (db) => db.schema.dropTable('ledger_rows').execute(),
} };
`;

describe('extensions: a call is atomic without holding the database', () => {
  const dir = new ExtensionsDir().add('plugins/ledger', manifest('Ledger', { tables: ['ledger_rows'], uses: ['taxes.add'] }), LEDGER);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ extensionsDir: dir.root });
    expect((await server.request('POST', '/api/plugin_manager/add.json', { body: 'vars[dir]=ledger' })).status).to.equal(200);
  });
  after(async () => {
    await server.close();
    dir.remove();
  });

  // A core write the extension makes as the calling company (a tax), to see whether it is kept.
  const companies = async () => (await server.request('GET', '/api/taxes/getList.json')).json.response.map((t: any) => t.name);
  const rows = async () => (await server.request('GET', '/api/ledger.ledger/rows.json')).json.response;

  it('reads its own writes within the call, and keeps them when it succeeds', async () => {
    expect((await server.request('POST', '/api/ledger.ledger/record.json', { body: 'text=one' })).status).to.equal(200);
    expect(await rows()).to.deep.equal(['one!']);
  });

  it("keeps nothing of a failing call: neither its rows nor a core method's", async () => {
    expect((await server.request('POST', '/api/ledger.ledger/recordThenFail.json', { body: 'text=lost' })).status).to.equal(500);
    expect((await server.request('POST', '/api/ledger.ledger/companyThenFail.json', { body: 'name=Ghost' })).status).to.equal(500);
    expect(await rows()).to.deep.equal(['one!']);
    expect(await companies()).not.to.include('Ghost');
    expect((await server.request('POST', '/api/ledger.ledger/company.json', { body: 'name=Real' })).status).to.equal(200);
    expect(await companies()).to.include('Real');
  });

  it('serves many concurrent writing calls, each whole, none lost', async () => {
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => server.request('POST', '/api/ledger.ledger/record.json', { body: `text=c${i}` })));
    expect(answers.map((a) => a.status)).to.deep.equal(Array(25).fill(200));
    expect(new Set(answers.map((a) => a.json.response)).size).to.equal(25);
    const kept = await rows();
    for (let i = 0; i < 25; i++) expect(kept).to.include(`c${i}!`);
  });

  it('refuses writes in a method declared for GET, keeping nothing', async () => {
    expect((await server.request('GET', '/api/ledger.ledger/writesInGet.json?text=sneaky')).status).to.equal(500);
    expect(await rows()).not.to.include('sneaky');
  });
});
