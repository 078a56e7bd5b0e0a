import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A temporary extensions directory the specs drop extensions into. */
export class ExtensionsDir {
  readonly root = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-extensions-'));

  /** Writes `<where>/config.json` (an object, or raw text) and `<where>/index.js`. */
  add(where: string, config: object | string, index?: string): this {
    const dir = path.join(this.root, where);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'config.json'), typeof config === 'string' ? config : JSON.stringify(config));
    if (index !== undefined) fs.writeFileSync(path.join(dir, 'index.js'), index);
    return this;
  }

  remove(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

export const manifest = (name: string, more: object = {}) => ({ name, version: '1.0.0', description: `${name} for the specs`, authors: [{ name: 'Spec' }], ...more });

/** A plain JavaScript plugin that misbehaves on demand, with a table of its own. */
export const PROBE_PLUGIN = `
class Probe {
  constructor(ctx) { this.ctx = ctx; }
  ping(value) { return { pong: value, company: this.ctx.companyId }; }
  fails() { throw new Error('the extension failed'); }
  refuses() { throw this.ctx.invalid({ value: { valid: 'Not today.' } }); }
  spins() { for (;;) {} }
  waits() { return new Promise(() => {}); }
  exits() { process.exit(3); }
  hogs() { const hog = []; for (;;) hog.push(new Array(1e6).fill(Math.random())); }
  optional(value, mode) { return mode; }
  hash(value) { return this.ctx.models.encryption.systemHash({ value }); }
  async note(text) {
    const row = await this.ctx.db.insertInto('probe_notes').values({ company_id: this.ctx.companyId, text }).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }
  async noteThenFail(text) { await this.note(text); throw new Error('after writing'); }
  notes() { return this.ctx.db.selectFrom('probe_notes').select(['id', 'text']).where('company_id', '=', this.ctx.companyId).orderBy('id').execute(); }
  helper() { return 'not callable'; }
}
Probe.callable = {
  ping: { params: ['value'] }, fails: {}, refuses: {}, spins: {}, waits: {}, exits: {}, hogs: {},
  optional: { params: [{ name: 'value', kind: 'string' }, { name: 'mode', kind: 'string', optional: true }] },
  hash: { params: [{ name: 'value', kind: 'string' }] },
  note: { params: [{ name: 'text', kind: 'string' }] }, noteThenFail: { params: [{ name: 'text', kind: 'string' }] }, notes: {},
};
exports.models = { probe: Probe };
exports.migrations = {
  '001_notes': {
    up: (db, kit) => db.schema.createTable('probe_notes').addColumn('id', kit.idType(), (c) => c.primaryKey())
      .addColumn('company_id', 'integer', (c) => c.notNull()).addColumn('text', 'varchar(255)', (c) => c.notNull()).execute(),
    down: (db) => db.schema.dropTable('probe_notes').execute(),
  },
};
`;

/** The smallest working extension: a plain object model. */
export const TINY = (answer: string) => `exports.models = { hello: { callable: { say: {} }, say() { return ${JSON.stringify(answer)}; } } };`;

/** What the probe asks for in its manifest: its table and the one core method it calls. */
export const PROBE_CAPABILITIES = { tables: ['probe_notes'], uses: ['encryption.systemHash'] };
