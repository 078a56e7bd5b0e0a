/**
 * Extensions written as an attacker would, one method per escape attempt. Each answers what it
 * got (so the spec can check it got nothing) or fails trying (a 500). Plain JavaScript, dropped
 * into a temporary extensions directory.
 */
export const HOSTILE = `
const crypto = require('crypto');
const raw = (ctx, sql) => ctx.ask({ kind: 'query', node: { kind: 'RawNode', sqlFragments: [sql], parameters: [] } });
const selectAll = (table) => ({ kind: 'SelectQueryNode', from: { kind: 'FromNode', froms: [{ kind: 'TableNode', table: { kind: 'SchemableIdentifierNode', identifier: { kind: 'IdentifierNode', name: table } } }] }, selections: [{ kind: 'SelectionNode', selection: { kind: 'SelectAllNode' } }] });

class Attack {
  constructor(ctx) { this.ctx = ctx; }

  /** Files, environment, processes, threads, sockets: what the global scope offers. */
  globals() {
    const g = globalThis;
    return {
      require: typeof g.require, process: typeof g.process, Buffer: typeof g.Buffer, fetch: typeof g.fetch, WebSocket: typeof g.WebSocket,
      XMLHttpRequest: typeof g.XMLHttpRequest, Worker: typeof g.Worker, setTimeout: typeof g.setTimeout, Deno: typeof g.Deno,
      module: typeof g.module, tallyHost: typeof g.__tallyHost, tallyRandom: typeof g.__tallyRandom,
    };
  }
  dynamicRequire(name) { return eval('require')(name); }
  functionRequire(name) { return Function('return require')()(name); }
  async dynamicImport(name) { const m = await import(name); return Object.keys(m); }
  processViaConstructor() { return this.constructor.constructor('return process')().env; }
  async fetchUrl(url) { return (await this.ctx.http.fetch(url)).status; }
  async fetchBody(url) { return (await this.ctx.http.fetch(url)).body.length; }
  async fetchError(url) { try { return (await this.ctx.http.fetch(url)).status; } catch (error) { return String(error && error.message); } }

  /** Other tables, credentials and transaction control through ctx.db and forged query trees. */
  async coreTable(table) { return this.ctx.db.selectFrom(table).selectAll().execute(); }
  async joinCore() { return this.ctx.db.selectFrom('hostile_notes').innerJoin('api_keys', 'api_keys.id', 'hostile_notes.id').selectAll().execute(); }
  async subqueryCore() { return this.ctx.db.selectFrom('hostile_notes').where('id', 'in', (eb) => eb.selectFrom('users').select('id')).selectAll().execute(); }
  async schemaQualified() { return this.ctx.db.selectFrom('main.hostile_notes').selectAll().execute(); }
  async forgedTree(table) { return this.ctx.ask({ kind: 'query', node: selectAll(table) }); }
  async rawSql(sql) { return raw(this.ctx, sql); }
  async badFunction() { return this.ctx.db.selectFrom('hostile_notes').select((eb) => eb.fn('load_extension', [eb.val('x')]).as('x')).execute(); }
  async ownTransaction() { return this.ctx.db.transaction().execute(async (trx) => trx.selectFrom('hostile_notes').selectAll().execute()); }
  async commitThenFail(text) {
    await this.ctx.db.insertInto('hostile_notes').values({ text }).execute();
    await raw(this.ctx, 'COMMIT').catch(() => null);
    throw new Error('after a forged COMMIT');
  }
  async dropCore() { return this.ctx.ask({ kind: 'query', node: { kind: 'DropTableNode', table: { kind: 'TableNode', table: { kind: 'SchemableIdentifierNode', identifier: { kind: 'IdentifierNode', name: 'hostile_notes' } } } } }); }

  /** Other companies: whatever the query says, the host scopes it to the caller's company. */
  async note(text) { return Number((await this.ctx.db.insertInto('hostile_notes').values({ text }).executeTakeFirst()).insertId ?? 0); }
  async noteAs(text, company) { await this.ctx.db.insertInto('hostile_notes').values({ text, company_id: company }).execute(); return null; }
  async notes() { return this.ctx.db.selectFrom('hostile_notes').select(['id', 'text', 'company_id']).orderBy('id').execute(); }
  async notesOf(company) { return this.ctx.db.selectFrom('hostile_notes').select(['id', 'text']).where((eb) => eb.or([eb('company_id', '=', company), eb('company_id', '!=', company)])).execute(); }
  /** An OR without parentheses, as a forged tree: the host's company check must still bind the whole condition. */
  async notesOfForged(company) {
    const compare = (op) => ({ kind: 'BinaryOperationNode', leftOperand: { kind: 'ReferenceNode', column: { kind: 'ColumnNode', column: { kind: 'IdentifierNode', name: 'company_id' } } }, operator: { kind: 'OperatorNode', operator: op }, rightOperand: { kind: 'ValueNode', value: Number(company) } });
    const node = { ...selectAll('hostile_notes'), where: { kind: 'WhereNode', where: { kind: 'OrNode', left: compare('='), right: compare('!=') } } };
    return (await this.ctx.ask({ kind: 'query', node })).rows.map((r) => r.text);
  }
  async rewriteAll(text) { const r = await this.ctx.db.updateTable('hostile_notes').set({ text }).executeTakeFirst(); return Number(r.numUpdatedRows); }
  async moveTo(company) { await this.ctx.db.updateTable('hostile_notes').set({ company_id: company }).execute(); return null; }
  async deleteAll() { const r = await this.ctx.db.deleteFrom('hostile_notes').executeTakeFirst(); return Number(r.numDeletedRows); }
  async upsertOver(id, text) { await this.ctx.db.insertInto('hostile_notes').values({ id, text }).onConflict((oc) => oc.column('id').doUpdateSet({ text })).execute(); return null; }
  async replaceOver(id, text) { await this.ctx.db.replaceInto('hostile_notes').values({ id, text }).execute(); return null; }

  /** Core methods, settings and credentials: only what the manifest uses, as the calling company. */
  async callCore(model, method, params) { return this.ctx.call(model, method, params ?? {}); }
  async settingsSeen() { return this.ctx.settings(); }

  /** Forged messages: the host checks each; a malformed one fails the call and restarts the sandbox. */
  async forge(kind) { return this.ctx.ask({ kind, cmd: 'id' }); }
  async forgeLog(level) { return this.ctx.ask({ kind: 'log', level, message: 'x', data: null }); }
  forgeResult() { JSON.stringify = () => '{"not json'; return 1; }

  /** Floods, memory, time. */
  logFlood() { for (let i = 0; i < 200000; i++) this.ctx.log.info('flood ' + i); return 'logged'; }
  askFlood() { for (;;) this.ctx.ask({ kind: 'log', level: 'info', message: 'x', data: null }); }
  randomFlood() { for (;;) crypto.randomBytes(65536); }
  staleFlood() { (async () => { for (;;) await this.ctx.ask({ kind: 'settings' }).catch(() => null); })(); return 'left running'; }
  token() { return crypto.randomBytes(8).toString('hex').length + ':' + crypto.randomUUID().length; }
  buffers() { const kept = []; for (let i = 0; i < 64; i++) kept.push(new Uint8Array(8 * 1024 * 1024).fill(1)); return kept.length; }
  /** 16 MB more of WebAssembly memory a call (touching a page is slow there), a byte written in each page so it is really held, kept past the call. */
  wasmMemory() {
    const memory = new WebAssembly.Memory({ initial: 256 });
    const bytes = new Uint8Array(memory.buffer);
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = 1;
    (globalThis.__held ??= []).push(memory);
    return globalThis.__held.length * memory.buffer.byteLength;
  }
  spins() { for (;;) {} }
  waits() { return new Promise(() => {}); }
  async writesThenWaits(text) { await this.ctx.db.insertInto('hostile_notes').values({ text }).execute(); return new Promise(() => {}); }

  /** State: one company's globals and prototypes are never another company's. */
  mark(value) { globalThis.__mark = value; Object.prototype.__polluted = value; Array.prototype.map = () => value; return value; }
  seen() { return { mark: globalThis.__mark ?? null, polluted: ({}).__polluted ?? null, map: [1].map((x) => x)[0] }; }
}

const p = (...names) => ({ params: names.map((n) => typeof n === 'string' ? { name: n, kind: 'any' } : n) });
const opt = (name) => ({ name, kind: 'any', default: null });
Attack.callable = {
  globals: { verb: 'GET' }, dynamicRequire: p('name'), functionRequire: p('name'), dynamicImport: p('name'), processViaConstructor: {},
  fetchUrl: p('url'), fetchBody: p('url'), fetchError: p('url'),
  coreTable: p('table'), joinCore: {}, subqueryCore: {}, schemaQualified: {}, forgedTree: p('table'), rawSql: p('sql'), badFunction: {}, ownTransaction: {}, commitThenFail: p('text'), dropCore: {},
  note: { verb: 'POST', ...p('text') }, noteAs: { verb: 'POST', ...p('text', 'company') }, notes: { verb: 'GET' }, notesOf: p('company'), notesOfForged: p('company'), rewriteAll: { verb: 'POST', ...p('text') }, moveTo: { verb: 'POST', ...p('company') },
  deleteAll: { verb: 'POST' }, upsertOver: { verb: 'POST', ...p('id', 'text') }, replaceOver: { verb: 'POST', ...p('id', 'text') },
  callCore: p('model', 'method', opt('params')), settingsSeen: {},
  forge: p('kind'), forgeLog: p('level'), forgeResult: {},
  logFlood: {}, askFlood: {}, randomFlood: {}, staleFlood: {}, token: {}, buffers: {}, wasmMemory: {}, spins: {}, waits: {}, writesThenWaits: { verb: 'POST', ...p('text') },
  mark: p('value'), seen: {},
};
exports.models = { attack: Attack };
exports.migrations = {
  '001_notes': {
    up: (db, kit) => db.schema.createTable('hostile_notes').addColumn('id', kit.idType(), (c) => c.primaryKey())
      .addColumn('company_id', 'integer', (c) => c.notNull()).addColumn('text', 'varchar(255)', (c) => c.notNull()).execute(),
    down: (db) => db.schema.dropTable('hostile_notes').execute(),
  },
};
`;

/** Extensions that reach for Node's modules at load: each is left out, with the reason. */
export const LOAD_TIME: Record<string, string> = {
  reads_files: `const fs = require('fs'); exports.models = { m: { callable: { f: {} }, f() { return fs.readFileSync('/etc/passwd', 'utf8'); } } };`,
  runs_processes: `const cp = require('child_process'); exports.models = { m: { callable: { f: {} }, f() { return String(cp.execSync('id')); } } };`,
  opens_sockets: `const net = require('node:net'); exports.models = { m: { callable: { f: {} }, f() { return net.connect(80, '127.0.0.1') && 'connected'; } } };`,
  loads_host_modules: `const SQLite = require('better-sqlite3'); exports.models = { m: { callable: { f: {} }, f() { return new SQLite('data/tally.sqlite').prepare('select * from settings').all(); } } };`,
  starts_threads: `const { Worker } = require('worker_threads'); exports.models = { m: { callable: { f: {} }, f() { return new Worker('for(;;){}', { eval: true }) && 'started'; } } };`,
  persists_in_host_files: `require('fs').appendFileSync(require('path').join(__dirname, '../../../dist/host/server.js'), '\\nconsole.log("owned")'); exports.models = { m: { callable: { f: {} }, f() { return 1; } } };`,
};

/** Replaces the host's entry point before the host reads it: the answer is not what the protocol allows. */
export const FORGER = `
Object.defineProperty(globalThis, '__tallyRun', { value: async () => ({ ok: 'yes', value: { toJSON() { return 'forged'; } } }), writable: false, configurable: false });
exports.models = { forged: { callable: { call: {} }, call() { return 'never runs'; } } };
`;

/** An install hook that never finishes, after its migration made a table. */
export const SLOW_INSTALL = `
exports.models = { m: { callable: { f: {} }, f() { return 1; } } };
exports.migrations = { '001': {
  up: (db, kit) => db.schema.createTable('slow_rows').addColumn('id', kit.idType(), (c) => c.primaryKey()).addColumn('company_id', 'integer', (c) => c.notNull()).execute(),
  down: (db) => db.schema.dropTable('slow_rows').execute(),
} };
exports.install = async (ctx) => { await ctx.db.insertInto('slow_rows').values({}).execute(); await new Promise(() => {}); };
`;

/** A migration that creates a table its manifest (declaring "wild_rows") does not declare. */
export const WILD_MIGRATION = `
exports.models = {};
exports.migrations = { '001': {
  up: (db, kit) => db.schema.createTable('undeclared_rows').addColumn('id', kit.idType(), (c) => c.primaryKey()).addColumn('company_id', 'integer', (c) => c.notNull()).execute(),
} };
`;

/** One table, "claimed_rows", that two extensions' manifests declare: each creates it when installed first. */
export const CLAIMANT = `
exports.models = {};
exports.migrations = { '001': {
  up: (db, kit) => db.schema.createTable('claimed_rows').ifNotExists().addColumn('id', kit.idType(), (c) => c.primaryKey()).addColumn('company_id', 'integer', (c) => c.notNull()).execute(),
} };
`;

/** Three tables of its own and a join of them: a thousand rows each is a billion combinations. */
export const CRUNCHER = `
const TABLES = ['crunch_a', 'crunch_b', 'crunch_c'];
class Crunch {
  constructor(ctx) { this.ctx = ctx; }
  async fill(n) {
    const rows = Array.from({ length: Number(n) }, () => ({ label: 'x' }));
    for (const table of TABLES) await this.ctx.db.insertInto(table).values(rows).execute();
    return n;
  }
  async cross() {
    return this.ctx.db.selectFrom('crunch_a').crossJoin('crunch_b').crossJoin('crunch_c').select((eb) => eb.fn.countAll().as('n')).execute();
  }
  /** The rows of a join of two of its tables (a million), or of a page of it: how many came, or why none did. */
  async pairs(limit) {
    let query = this.ctx.db.selectFrom('crunch_a').crossJoin('crunch_b').select(['crunch_a.id as a', 'crunch_b.id as b']);
    if (limit !== null && limit !== undefined) query = query.limit(limit);
    return query.execute().then((rows) => rows.length, (error) => String(error && error.message));
  }
  async all() { return (await this.ctx.db.selectFrom('crunch_a').selectAll().execute()).length; }
  /** Relabels crunch_a's rows up to id \`upTo\` (all of them without), answering the ids: how many came, or why none did. */
  async relabel(label, upTo) {
    let query = this.ctx.db.updateTable('crunch_a').set({ label });
    if (upTo !== null && upTo !== undefined) query = query.where('id', '<=', upTo);
    return query.returning('id').execute().then((rows) => rows.length, (error) => String(error && error.message));
  }
  async labels() { return (await this.ctx.db.selectFrom('crunch_a').select('label').distinct().execute()).map((r) => r.label).sort(); }
}
Crunch.callable = { fill: { verb: 'POST', params: [{ name: 'n', kind: 'int' }] }, cross: { verb: 'POST' }, pairs: { verb: 'GET', params: [{ name: 'limit', kind: 'int', default: null }] }, all: { verb: 'GET' }, relabel: { verb: 'POST', params: [{ name: 'label', kind: 'string' }, { name: 'upTo', kind: 'int', default: null }] }, labels: { verb: 'GET' } };
exports.models = { crunch: Crunch };
exports.migrations = { '001_tables': {
  up: async (db, kit) => { for (const table of TABLES) await db.schema.createTable(table).addColumn('id', kit.idType(), (c) => c.primaryKey()).addColumn('company_id', 'integer', (c) => c.notNull()).addColumn('label', 'varchar(20)').execute(); },
  down: async (db) => { for (const table of TABLES) await db.schema.dropTable(table).execute(); },
} };
`;
