import { expect } from 'chai';
import { installSpecProbe } from '../../support/spec-models';
import { startTestServer, TestServer } from '../../support/test-server';

/** One call, one transaction: a call that fails leaves nothing half-written, and calls share nothing. */
describe('calls and their transactions over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    installSpecProbe(server.installation);
  });
  after(() => server.close());

  const companyNamed = (name: string) => server.installation.db.selectFrom('companies').select('id').where('name', '=', name).executeTakeFirst();

  it('rolls back the writes of a call that answers 400', async () => {
    const res = await server.request('POST', '/api/spec_probe/writeThenFail.json', { body: 'name=half-written-400&how=invalid' });
    expect(res.status).to.equal(400);
    expect(res.json.errors).to.deep.equal({ name: { valid: 'Refused after writing.' } });
    expect(await companyNamed('half-written-400')).to.equal(undefined);
  });

  it('rolls back the writes of a call that fails unexpectedly (500)', async () => {
    const res = await server.request('POST', '/api/spec_probe/writeThenFail.json', { body: 'name=half-written-500&how=crash' });
    expect(res.status).to.equal(500);
    expect(res.json).to.deep.equal({ message: 'An unexpected error occured.' });
    expect(await companyNamed('half-written-500')).to.equal(undefined);
  });

  it('gives every call its own copy of a default value', async () => {
    const first = await server.request('POST', '/api/spec_probe/mark.json');
    const second = await server.request('POST', '/api/spec_probe/mark.json');
    expect(first.json).to.deep.equal({ response: { vars: { marks: 1 }, tags: ['marked'] } });
    expect(second.json).to.deep.equal(first.json);
  });

  it('names an unknown parameter in a 400 and suggests vars[...] when the method takes vars', async () => {
    const res = await server.request('POST', '/api/users/add.json', { body: 'username=ada&new_password=secret1&confirm_password=secret1' });
    expect(res.status).to.equal(400);
    expect(res.json.errors).to.have.keys('username', 'new_password', 'confirm_password', 'vars');
    expect(res.json.errors.username.unknown).to.contain('Did you mean vars[username]?');
    expect(res.json.errors.vars).to.have.property('empty');
  });
});
