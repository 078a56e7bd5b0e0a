/** The files `tally extension new` writes: a small working extension with a table, and its spec. */

export function configJson(title: string, gateway: boolean, name: string): string {
  const manifest: Record<string, unknown> = {
    name: title,
    version: '0.1.0',
    description: `${title}: describe what it does for the people who install it.`,
    authors: [{ name: 'You', url: 'https://example.com' }],
    // What it may reach, shown to the installer: core methods it calls, HTTP hosts, its own tables.
    uses: [],
    hosts: [],
    tables: [`${name}_notes`],
  };
  if (gateway) manifest.currencies = ['USD'];
  return JSON.stringify(manifest, null, 2) + '\n';
}

/** TypeScript, compiled by the project's `npx tsc -p .`; `kit` is the import path of host/extensions/kit. */
export function indexTs(name: string, kit: string): string {
  return `import { callable, ExtensionContext, ExtensionMigration, idType, int, object, shape, string, TallyError } from '${kit}';

/** What the methods take in vars and answer, for the API reference (/api/openapi.json, /api/docs). */
const NOTE_VARS = shape.inputs({ text: shape.string({ required: true, example: 'Call back' }) });
const NOTE = shape.record({ id: shape.int(), company_id: shape.int(), text: shape.string(), date_added: shape.timestamp() });

/** \`${name}.notes\`: notes kept per company in the extension's own table. */
export class Notes {
  constructor(private readonly ctx: ExtensionContext) {}

  @callable({ verb: 'GET', params: [string('value')], returns: shape.record({ pong: shape.string(), company_id: shape.int() }), description: 'Answers value: check the extension is installed and answering.' })
  ping(value: string) {
    return { pong: value, company_id: this.ctx.companyId };
  }

  @callable({ verb: 'POST', params: [object('vars')], vars: NOTE_VARS, returns: shape.int({ description: 'The new note id.' }), description: 'Keep a note from vars[text]. Returns its id.' })
  async add(vars: Record<string, unknown>) {
    await this.ctx.assertValid(vars, { text: [{ code: 'empty', message: 'Please enter the text.', check: this.ctx.is.present }] });
    const row = await this.ctx.db.insertInto('${name}_notes').values({ company_id: this.ctx.companyId, text: String(vars.text), date_added: this.ctx.now() }).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  @callable({ verb: 'GET', params: [int('note_id')], returns: shape.orNull(NOTE), description: 'A note, or null.' })
  async get(noteId: number) {
    return (await this.ctx.db.selectFrom('${name}_notes').selectAll().where('id', '=', noteId).where('company_id', '=', this.ctx.companyId).executeTakeFirst()) ?? null;
  }

  @callable({ verb: 'DELETE', params: [int('note_id')], returns: shape.nothing(), description: 'Delete a note.' })
  async delete(noteId: number) {
    if (!(await this.get(noteId))) throw TallyError.invalid({ note_id: { exists: 'Invalid note ID.' } });
    await this.ctx.db.deleteFrom('${name}_notes').where('id', '=', noteId).execute();
    return null;
  }
}

export const models = { notes: Notes };

export const migrations: Record<string, ExtensionMigration> = {
  '001_notes': {
    up: (db) =>
      db.schema
        .createTable('${name}_notes')
        .addColumn('id', idType(db), (c) => c.primaryKey())
        .addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
        .execute(),
    down: (db) => db.schema.dropTable('${name}_notes').execute(),
  },
};

/** Runs inside the installing call's transaction, after the migrations. */
export async function install(ctx: ExtensionContext) {
  ctx.log.info(\`${name} installed for company \${ctx.companyId}\`);
}
`;
}

/** Plain JavaScript: no build step, nothing to import. */
export function indexJs(name: string): string {
  return `'use strict';

/** \`${name}.notes\`: notes kept per company in the extension's own table. */
class Notes {
  constructor(ctx) {
    this.ctx = ctx;
  }

  ping(value) {
    return { pong: value, company_id: this.ctx.companyId };
  }

  async add(vars) {
    await this.ctx.assertValid(vars, { text: [{ code: 'empty', message: 'Please enter the text.', check: this.ctx.is.present }] });
    const row = await this.ctx.db.insertInto('${name}_notes').values({ company_id: this.ctx.companyId, text: String(vars.text), date_added: this.ctx.now() }).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  async get(noteId) {
    return (await this.ctx.db.selectFrom('${name}_notes').selectAll().where('id', '=', noteId).where('company_id', '=', this.ctx.companyId).executeTakeFirst()) ?? null;
  }

  async delete(noteId) {
    if (!(await this.get(noteId))) throw this.ctx.invalid({ note_id: { exists: 'Invalid note ID.' } });
    await this.ctx.db.deleteFrom('${name}_notes').where('id', '=', noteId).execute();
    return null;
  }
}

/** What the methods take in vars and answer: shapes as the kit's shape helpers make them, for the API reference. */
const NOTE = {
  kind: 'object',
  fields: [
    { name: 'id', kind: 'int', required: true },
    { name: 'company_id', kind: 'int', required: true },
    { name: 'text', kind: 'string', required: true },
    { name: 'date_added', kind: 'string', format: 'timestamp', required: true },
  ],
};

/** What the API may call, with each method's parameters in order, its vars fields and its answer. */
Notes.callable = {
  ping: {
    verb: 'GET',
    params: [{ name: 'value', kind: 'string' }],
    returns: { kind: 'object', fields: [{ name: 'pong', kind: 'string', required: true }, { name: 'company_id', kind: 'int', required: true }] },
    description: 'Answers value: check the extension is installed and answering.',
  },
  add: {
    verb: 'POST',
    params: [{ name: 'vars', kind: 'object' }],
    vars: [{ name: 'text', kind: 'string', required: true, example: 'Call back' }],
    returns: { kind: 'int', description: 'The new note id.' },
    description: 'Keep a note from vars[text]. Returns its id.',
  },
  get: { verb: 'GET', params: [{ name: 'note_id', kind: 'int' }], returns: { ...NOTE, nullable: true }, description: 'A note, or null.' },
  delete: { verb: 'DELETE', params: [{ name: 'note_id', kind: 'int' }], returns: { kind: 'null' }, description: 'Delete a note.' },
};

exports.models = { notes: Notes };

exports.migrations = {
  '001_notes': {
    up: (db, kit) =>
      db.schema
        .createTable('${name}_notes')
        .addColumn('id', kit.idType(), (c) => c.primaryKey())
        .addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
        .execute(),
    down: (db) => db.schema.dropTable('${name}_notes').execute(),
  },
};

/** Runs inside the installing call's transaction, after the migrations. */
exports.install = async (ctx) => ctx.log.info('${name} installed for company ' + ctx.companyId);
`;
}

/** A spec over real HTTP; `testServer` and `extensionsDir` are paths as the compiled spec sees them. */
export function specTs(name: string, manager: string, testServer: string, extensionsDir: string): string {
  return `import path from 'node:path';
import { expect } from 'chai';
import { startTestServer, TestServer } from '${testServer}';

describe('extension ${name}', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ extensionsDir: path.resolve(__dirname, ${JSON.stringify(extensionsDir)}) });
  });
  after(() => server.close());

  it('answers 403 until installed, then answers', async () => {
    expect((await server.request('GET', '/api/${name}.notes/ping.json?value=hi')).status).to.equal(403);
    const installed = await server.request('POST', '/api/${manager}/add.json', { body: 'vars[dir]=${name}' });
    expect(installed.status, installed.text).to.equal(200);
    const ping = await server.request('GET', '/api/${name}.notes/ping.json?value=hi');
    expect(ping.json).to.deep.equal({ response: { pong: 'hi', company_id: 1 } });
  });

  it('keeps notes in its own table', async () => {
    expect((await server.request('POST', '/api/${name}.notes/add.json', { body: 'vars[text]=' })).json.errors).to.deep.equal({ text: { empty: 'Please enter the text.' } });
    const id = (await server.request('POST', '/api/${name}.notes/add.json', { body: 'vars[text]=hello' })).json.response;
    expect((await server.request('GET', \`/api/${name}.notes/get.json?note_id=\${id}\`)).json.response).to.include({ id, text: 'hello' });
    expect((await server.request('DELETE', \`/api/${name}.notes/delete.json?note_id=\${id}\`)).status).to.equal(200);
    expect((await server.request('GET', \`/api/${name}.notes/get.json?note_id=\${id}\`)).json.response).to.equal(null);
  });
});
`;
}
