import { expect } from 'chai';
import path from 'node:path';
import { startTestServer, TestServer } from '../../support/test-server';
import { ExtensionsDir, manifest } from './fixtures';

const SHIPPED_EXTENSIONS = path.resolve(__dirname, '../../../../extensions');

/** A plain JavaScript plugin declaring vars and returns as data, the shapes core's helpers make. */
const TYPED_PLAIN = `
class Notes {
  add(vars) { return 7; }
  get(noteId) { return { id: noteId, title: 'A note' }; }
}
Notes.callable = {
  add: {
    verb: 'POST',
    params: [{ name: 'vars', kind: 'object' }],
    vars: [{ name: 'title', kind: 'string', required: true, example: 'Call back' }, { name: 'colour', kind: 'string', required: false, enum: ['red', 'blue'] }],
    returns: { kind: 'int', description: 'The new note id.' },
  },
  get: { verb: 'GET', params: [{ name: 'note_id', kind: 'int' }], returns: { kind: 'object', nullable: true, fields: [{ name: 'id', kind: 'int', required: true }, { name: 'title', kind: 'string', required: true }] } },
};
exports.models = { notes: Notes };
`;

/** A plugin whose `returns` is whatever the spec puts in, to see the host refuse it. */
const declaring = (returns: string) => `exports.models = { m: { callable: { f: { returns: ${returns} } }, f() { return 1; } } };`;

const deep = (levels: number): string => (levels === 0 ? "{ kind: 'int' }" : `{ kind: 'list', items: ${deep(levels - 1)} }`);

const successSchema = (document: any, call: string) => {
  const [model, method] = [call.slice(0, call.lastIndexOf('.')), call.slice(call.lastIndexOf('.') + 1)];
  const item = document.paths[`/api/${model}/${method}.{format}`];
  const operation = item.get ?? item.post ?? item.put ?? item.delete;
  return { operation, response: operation.responses['200'] };
};

describe('extension callables declared as core declares its own', () => {
  const dir = new ExtensionsDir()
    .add('plugins/typed_plain', manifest('Typed plain'), TYPED_PLAIN)
    .add('plugins/bad_kind', manifest('Bad kind'), declaring("{ kind: 'date' }"))
    .add('plugins/bad_field', manifest('Bad field'), declaring("{ kind: 'object', fields: [{ name: '__proto__', kind: 'int' }] }"))
    .add('plugins/too_deep', manifest('Too deep'), declaring(deep(12)))
    .add('plugins/bad_format', manifest('Bad format'), declaring("{ kind: 'string', format: 'html' }"))
    .add('plugins/vars_no_param', manifest('Vars without param'), "exports.models = { m: { callable: { f: { vars: [{ name: 'a', kind: 'int' }] } }, f() { return 1; } } };");
  let shipped: TestServer;
  let spec: TestServer;
  before(async () => {
    [shipped, spec] = await Promise.all([startTestServer({ extensionsDir: SHIPPED_EXTENSIONS }), startTestServer({ extensionsDir: dir.root })]);
  });
  after(async () => {
    await Promise.all([shipped.close(), spec.close()]);
    dir.remove();
  });

  it("types a shipped TypeScript extension's methods in OpenAPI as it types core's: vars fields and answers", async () => {
    const document = (await shipped.request('GET', '/api/openapi.json')).json;
    const add = successSchema(document, 'support_manager.tickets.add');
    const vars = add.operation.requestBody.content['application/x-www-form-urlencoded'].schema.properties.vars;
    expect(vars.properties).to.have.keys(['client_id', 'department_id', 'summary', 'details', 'priority']);
    expect(vars.required).to.have.members(['client_id', 'department_id', 'summary', 'details']);
    expect(vars.properties.priority.enum).to.deep.equal(['low', 'medium', 'high', 'critical']);
    expect(add.response.$ref, 'a declared answer, not the untyped Success').to.equal(undefined);
    expect(JSON.stringify(add.response)).to.contain('"integer"');
    const get = successSchema(document, 'support_manager.tickets.get');
    expect(JSON.stringify(get.response)).to.contain('"replies"').and.contain('"awaiting_reply"');
    // Core's methods come out the same way: the same builder reads the same declaration.
    const core = successSchema(document, 'clients.addNote');
    expect(core.response.$ref).to.equal(undefined);
  });

  it('types a plain JavaScript extension declaring vars and returns as data, and still binds by its params', async () => {
    const listed = (await spec.request('GET', '/api/plugin_manager/getAll.json')).json.response;
    expect(listed.find((e: any) => e.dir === 'typed_plain')).to.include({ loaded: true, error: null });
    const document = (await spec.request('GET', '/api/openapi.json')).json;
    const add = successSchema(document, 'typed_plain.notes.add');
    const vars = add.operation.requestBody.content['application/x-www-form-urlencoded'].schema.properties.vars;
    expect(vars.properties.title).to.include({ type: 'string' });
    expect(vars.properties.colour.enum).to.deep.equal(['red', 'blue']);
    expect(vars.required).to.deep.equal(['title']);
    expect(JSON.stringify(successSchema(document, 'typed_plain.notes.get').response)).to.contain('"title"');
  });

  it('refuses to load a declaration the reference cannot hold, saying where it is wrong', async () => {
    const listed = Object.fromEntries((await spec.request('GET', '/api/plugin_manager/getAll.json')).json.response.map((e: any) => [e.dir, e]));
    expect(listed.bad_kind).to.include({ loaded: false });
    expect(listed.bad_kind.error).to.contain('m.f.returns must be a shape with a kind');
    expect(listed.bad_field.error).to.contain('m.f.returns.fields[0] needs a name');
    expect(listed.too_deep.error).to.contain('nested more than 8 levels deep');
    expect(listed.bad_format.error).to.contain('format must be one of');
    expect(listed.vars_no_param.error).to.contain('declares vars fields but no vars parameter');
  });
});
