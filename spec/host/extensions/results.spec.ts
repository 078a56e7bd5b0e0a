import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { ExtensionsDir, manifest } from './fixtures';

/** Values that JSON, XML and PHP could each render differently. */
const SHAPES = `
class Shapes {
  constructor(ctx) { this.ctx = ctx; }
  smallBigInt() { return { n: 42n }; }
  hugeBigInt() { return { n: 2n ** 70n }; }
  map() { return new Map([['a', 1]]); }
  set() { return new Set([1, 2]); }
  date() { return { at: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)) }; }
  circular() { const o = { name: 'loop' }; o.self = o; return o; }
  oversized() { return 'x'.repeat(300000); }
  notANumber() { return { n: NaN }; }
  instance() { return new (class Money { constructor() { this.amount = 1; } })(); }
  async inserted(text) { return (await this.ctx.db.insertInto('shapes_rows').values({ text }).executeTakeFirst()).insertId; }
  async insertedThenHuge(text) { await this.ctx.db.insertInto('shapes_rows').values({ text }).execute(); return 2n ** 70n; }
  async rows() { return (await this.ctx.db.selectFrom('shapes_rows').select('text').orderBy('id').execute()).map((r) => r.text); }
  async forgetsAwait(vars) {
    this.ctx.assertValid(vars, { text: [{ code: 'empty', message: 'Please enter the text.', check: this.ctx.is.present }] });
    await this.ctx.db.insertInto('shapes_rows').values({ text: String(vars.text ?? '') }).execute();
    return 'written';
  }
  async catchesItself(vars) {
    try { await this.ctx.assertValid(vars, { text: [{ code: 'empty', message: 'Please enter the text.', check: this.ctx.is.present }] }); } catch { return 'handled'; }
    return 'valid';
  }
  takesVars(vars) { return Object.keys(vars); }
}
const text = { params: [{ name: 'text', kind: 'string' }] };
const vars = { params: [{ name: 'vars', kind: 'object', optional: false, defaultKnown: true, default: undefined }] };
Shapes.callable = { smallBigInt: {}, hugeBigInt: {}, map: {}, set: {}, date: {}, circular: {}, oversized: {}, notANumber: {}, instance: {},
  inserted: { verb: 'POST', ...text }, insertedThenHuge: { verb: 'POST', ...text }, rows: { verb: 'GET' }, forgetsAwait: { verb: 'POST', ...vars }, catchesItself: { verb: 'POST', ...vars }, takesVars: { verb: 'POST', ...vars } };
exports.models = { shapes: Shapes };
exports.migrations = { '001': {
  up: (db, kit) => db.schema.createTable('shapes_rows').addColumn('id', kit.idType(), (c) => c.primaryKey()).addColumn('company_id', 'integer', (c) => c.notNull()).addColumn('text', 'text', (c) => c.notNull()).execute(),
  down: (db) => db.schema.dropTable('shapes_rows').execute(),
} };
`;

describe('extensions: results are exact in every format, or the same 500 in every format', () => {
  const dir = new ExtensionsDir().add('plugins/shapes', manifest('Shapes', { tables: ['shapes_rows'] }), SHAPES);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ extensionsDir: dir.root, extensionLimits: { resultBytes: 100_000 } });
    expect((await server.request('POST', '/api/plugin_manager/add.json', { body: 'vars[dir]=shapes' })).status).to.equal(200);
  });
  after(async () => {
    await server.close();
    dir.remove();
  });

  const inEveryFormat = async (method: string, body = '') => {
    const answers = [];
    for (const format of ['json', 'xml', 'php']) answers.push(await server.request('POST', `/api/shapes.shapes/${method}.${format}`, { body }));
    return answers;
  };

  for (const method of ['hugeBigInt', 'map', 'set', 'circular', 'oversized', 'notANumber', 'instance']) {
    it(`${method}: the contract 500 in JSON, XML and PHP`, async () => {
      for (const res of await inEveryFormat(method)) expect(res.status, `${method} ${res.contentType}`).to.equal(500);
    });
  }

  it('a BigInt within 2^53 is its number; a Date is the API timestamp, in every format', async () => {
    const [json, xml, php] = await inEveryFormat('smallBigInt');
    expect(json.json).to.deep.equal({ response: { n: 42 } });
    expect(xml.text).to.contain('<n>42</n>');
    expect(php.text).to.contain('i:42;');
    const [jsonDate, xmlDate, phpDate] = await inEveryFormat('date');
    expect(jsonDate.json).to.deep.equal({ response: { at: '2024-01-02 03:04:05' } });
    expect(xmlDate.text).to.contain('2024-01-02 03:04:05');
    expect(phpDate.text).to.contain('"2024-01-02 03:04:05"');
  });

  it("a POST answering Kysely's insertId answers the id, and a 500 keeps nothing", async () => {
    const res = await server.request('POST', '/api/shapes.shapes/inserted.json', { body: 'text=first' });
    expect(res.status).to.equal(200);
    // PostgreSQL reports no insertId without returning(): null there, the id on SQLite; never a 500.
    if (server.installation.connection.dialect === 'sqlite') expect(res.json.response).to.be.a('number');
    else expect(res.json.response).to.equal(null);
    expect((await server.request('POST', '/api/shapes.shapes/insertedThenHuge.json', { body: 'text=lost' })).status).to.equal(500);
    expect((await server.request('GET', '/api/shapes.shapes/rows.json')).json.response).to.deep.equal(['first']);
  });

  it('an assertValid without await still answers its 400, and nothing is written', async () => {
    const res = await server.request('POST', '/api/shapes.shapes/forgetsAwait.json', { body: 'vars[text]=' });
    expect(res.status).to.equal(400);
    expect(res.json.errors).to.deep.equal({ text: { empty: 'Please enter the text.' } });
    expect((await server.request('GET', '/api/shapes.shapes/rows.json')).json.response).to.deep.equal(['first']);
    expect((await server.request('POST', '/api/shapes.shapes/catchesItself.json', { body: 'vars[text]=' })).json.response).to.equal('handled');
  });

  it('an omitted object parameter without a default answers 400, as for a core method', async () => {
    const res = await server.request('POST', '/api/shapes.shapes/takesVars.json');
    expect(res.status).to.equal(400);
    expect(res.json.errors).to.have.property('vars');
  });
});
