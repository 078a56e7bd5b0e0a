import { expect } from 'chai';
import { SYSTEM_COMPANY } from '../../../core/settings-catalogue';
import { installSpecProbe, SECRET_FAILURE } from '../../support/spec-models';
import { startTestServer, TestServer } from '../../support/test-server';

// Every row of the seed's error table (section 7), exact message and body fields, over real HTTP.
const MESSAGES = {
  400: 'The request cannot be fulfilled due to bad syntax.',
  401: 'The authorization details given appear to be invalid.',
  403: 'The requested resource is not accessible.',
  404: 'The requested resource does not exist.',
  415: 'The format requested is not supported by the server.',
  500: 'An unexpected error occured.',
  503: 'The requested resource is currently unavailable due to maintenance.',
} as const;

describe('the error table over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    installSpecProbe(server.installation);
  });
  after(() => server.close());

  const expectError = async (verb: string, path: string, status: keyof typeof MESSAGES, options = {}) => {
    const res = await server.request(verb, path, options);
    expect(res.status, `${verb} ${path}: ${res.text}`).to.equal(status);
    expect(res.contentType).to.match(/^application\/json/);
    return res;
  };

  it('400: message and errors mapping each parameter to code → message', async () => {
    const res = await expectError('POST', '/api/users/add.json', 400, { body: 'vars[username]=&vars[new_password]=secret1&vars[confirm_password]=secret1' });
    expect(res.json).to.deep.equal({ message: MESSAGES[400], errors: { username: { empty: 'Please enter a username.' } } });
  });

  it('400 for a missing required parameter names it under `empty`', async () => {
    const res = await expectError('GET', '/api/users/get.json', 400);
    expect(res.json.message).to.equal(MESSAGES[400]);
    expect(res.json.errors.user_id).to.have.property('empty');
  });

  it('401 without credentials, with a wrong key, with an unknown user', async () => {
    const { user, key } = server.credential;
    for (const auth of [false, { user, key: key + 'x' }, { user: 'nobody', key }, { basic: { user, key: 'wrong' } }] as const) {
      const res = await expectError('GET', '/api/users/get.json?user_id=1', 401, { auth });
      expect(res.json).to.deep.equal({ message: MESSAGES[401] });
    }
  });

  it('401 for a revoked key', async () => {
    const credential = await server.credentialFor(1);
    expect((await server.request('GET', '/api/users/getListCount.json', { auth: credential })).status).to.equal(200);
    const row = await server.installation.db.selectFrom('api_keys').select('id').where('user', '=', credential.user).executeTakeFirstOrThrow();
    expect((await server.request('DELETE', `/api/api_keys/delete.json?id=${row.id}`)).status).to.equal(200);
    const res = await expectError('GET', '/api/users/getListCount.json', 401, { auth: credential });
    expect(res.json).to.deep.equal({ message: MESSAGES[401] });
  });

  for (const member of ['constructor', '_internal', 'undecorated']) {
    it(`403 for the non-callable member ${member}`, async () => {
      const res = await expectError('GET', `/api/spec_probe/${member}.json`, 403);
      expect(res.json).to.deep.equal({ message: MESSAGES[403] });
    });
  }

  for (const path of ['/api/nosuchmodel/get.json', '/api/users/nosuchmethod.json', '/api/users/toString.json', '/api/users/__proto__.json']) {
    it(`404 for ${path}`, async () => {
      expect((await expectError('GET', path, 404)).json).to.deep.equal({ message: MESSAGES[404] });
    });
  }

  for (const path of ['/api', '/api/', '/api/users.json', '/api/users/get.json/extra', '/api//get.json', '/api/users/.json', '/api/us%ZZers/get.json', '/api/1users/get.json']) {
    it(`404 in JSON for the malformed URL ${path}`, async () => {
      expect((await expectError('GET', path, 404)).json).to.deep.equal({ message: MESSAGES[404] });
    });
  }

  for (const path of ['/api/users/get', '/api/users/get.', '/api/users/get.yaml', '/api/users/get.html']) {
    it(`415 in JSON for ${path}`, async () => {
      expect((await expectError('GET', `${path}?user_id=1`, 415)).json).to.deep.equal({ message: MESSAGES[415] });
    });
  }

  it('500 for an unexpected failure, without leaking its text', async () => {
    const res = await expectError('GET', '/api/spec_probe/explode.json', 500);
    expect(res.json).to.deep.equal({ message: MESSAGES[500] });
    expect(res.text).not.to.contain('hunter2');
    expect(res.text).not.to.contain(SECRET_FAILURE);
  });

  it('500 with `response` when an optional parameter has no known default', async () => {
    const res = await expectError('GET', '/api/spec_probe/needsDefault.json', 500);
    expect(res.json).to.deep.equal({ message: MESSAGES[500], response: 'Internal error: Failed to retrieve the default value' });
    // Passing every optional argument avoids it, as the contract says.
    expect((await server.request('GET', '/api/spec_probe/needsDefault.json?x=given')).json).to.deep.equal({ response: 'given' });
  });

  describe('503 in maintenance mode', () => {
    beforeEach(async () => {
      const res = await server.request('PUT', '/api/settings/set.json', { body: 'key=maintenance_mode&value=true', auth: server.installationCredential });
      expect(res.status).to.equal(200);
    });
    afterEach(() => server.installation.settings.set(SYSTEM_COMPANY, 'maintenance_mode', 'false'));

    it('answers 503 to valid credentials', async () => {
      expect((await expectError('GET', '/api/users/get.json?user_id=1', 503)).json).to.deep.equal({ message: MESSAGES[503] });
    });

    it('answers 401 first to invalid credentials', async () => {
      expect((await expectError('GET', '/api/users/get.json?user_id=1', 401, { auth: false })).json).to.deep.equal({ message: MESSAGES[401] });
    });

    it('beats 404 and 403: nothing is resolved during maintenance', async () => {
      await expectError('GET', '/api/nosuchmodel/get.json', 503);
      await expectError('GET', '/api/spec_probe/undecorated.json', 503);
    });
  });

  describe('check order (DESIGN.md section 3)', () => {
    it('a malformed URL beats bad credentials', async () => {
      await expectError('GET', '/api/users.json', 404, { auth: false });
    });

    it('a bad format beats bad credentials', async () => {
      await expectError('GET', '/api/users/get.yaml', 415, { auth: false });
    });

    it('bad credentials beat an unknown model and a non-callable member', async () => {
      await expectError('GET', '/api/nosuchmodel/get.json', 401, { auth: false });
      await expectError('GET', '/api/spec_probe/_internal.json', 401, { auth: false });
    });

    it('404/403 beat bad parameters', async () => {
      await expectError('GET', '/api/users/nosuchmethod.json?bogus=1', 404);
      await expectError('GET', '/api/spec_probe/undecorated.json?bogus=1', 403);
    });

    it('bad parameters beat the default-value 500', async () => {
      const res = await expectError('GET', '/api/spec_probe/needsDefault.json?bogus=1', 400);
      expect(res.json.errors).to.have.property('bogus');
    });
  });
});
