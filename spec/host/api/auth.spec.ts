import { expect } from 'chai';
import { hashKey } from '../../../core/identity/credentials';
import { formatUtc } from '../../../core/kernel/timestamps';
import { Credential, startTestServer, TestServer } from '../../support/test-server';

const basic = (user: string, key: string) => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;

describe('authentication over HTTP', () => {
  let server: TestServer;
  let user: string;
  let key: string;
  before(async () => {
    server = await startTestServer();
    ({ user, key } = server.credential);
  });
  after(() => server.close());

  const status = async (headers: Record<string, string>) => (await server.request('GET', '/api/users/getListCount.json', { auth: false, headers })).status;

  describe('header authentication', () => {
    it('accepts SERVICE-API-USER and SERVICE-API-KEY in any letter case', async () => {
      expect(await status({ 'SERVICE-API-USER': user, 'SERVICE-API-KEY': key })).to.equal(200);
      expect(await status({ 'service-api-user': user, 'service-api-key': key })).to.equal(200);
      expect(await status({ 'Service-Api-User': user, 'sErViCe-ApI-kEy': key })).to.equal(200);
    });

    it('works with POST as with GET', async () => {
      const res = await server.request('POST', '/api/encryption/systemHash.json', { body: 'value=x', auth: false, headers: { 'SERVICE-API-USER': user, 'SERVICE-API-KEY': key } });
      expect(res.status).to.equal(200);
    });

    it('refuses a wrong key, a missing user header and an empty key', async () => {
      expect(await status({ 'SERVICE-API-USER': user, 'SERVICE-API-KEY': key.slice(1) })).to.equal(401);
      expect(await status({ 'SERVICE-API-KEY': key })).to.equal(401);
      expect(await status({ 'SERVICE-API-USER': user, 'SERVICE-API-KEY': '' })).to.equal(401);
    });

    it("accepts BLESTA-API-USER and BLESTA-API-KEY, as the reference's current SDKs send them", async () => {
      expect(await status({ 'BLESTA-API-USER': user, 'BLESTA-API-KEY': key })).to.equal(200);
      expect(await status({ 'blesta-api-user': user, 'blesta-api-key': key })).to.equal(200);
      expect(await status({ 'BLESTA-API-USER': user, 'BLESTA-API-KEY': key.slice(1) })).to.equal(401);
      // The pairs are not mixed: a user of one spelling and a key of the other is no credential.
      expect(await status({ 'SERVICE-API-USER': user, 'BLESTA-API-KEY': key })).to.equal(401);
    });

    it('does not accept the key of one user for another', async () => {
      const other = await server.credentialFor(1);
      expect(await status({ 'SERVICE-API-USER': other.user, 'SERVICE-API-KEY': key })).to.equal(401);
    });
  });

  describe('HTTP Basic', () => {
    it('accepts the API user as user name and the API key as password', async () => {
      expect(await status({ authorization: basic(user, key) })).to.equal(200);
      expect(await status({ authorization: basic(user, key).replace('Basic', 'basic') })).to.equal(200);
    });

    it('splits at the first colon, so a key may contain ":"', async () => {
      const colonKey = 'part:two:three';
      await server.installation.db
        .insertInto('api_keys')
        .values({ company_id: 1, user: 'colon_user', key_hash: hashKey(colonKey), notes: null, date_added: formatUtc(new Date()), last_used: null })
        .execute();
      expect(await status({ authorization: basic('colon_user', colonKey) })).to.equal(200);
      expect(await status({ authorization: basic('colon_user', 'part') })).to.equal(401);
    });

    it('refuses a wrong password, a value without a colon, bad base64 and other schemes', async () => {
      expect(await status({ authorization: basic(user, 'wrong') })).to.equal(401);
      expect(await status({ authorization: `Basic ${Buffer.from(user + key).toString('base64')}` })).to.equal(401);
      expect(await status({ authorization: 'Basic !!!not-base64!!!' })).to.equal(401);
      expect(await status({ authorization: `Bearer ${key}` })).to.equal(401);
    });

    it('asks for Basic credentials on a 401', async () => {
      const res = await fetch(`${server.url}/api/users/getListCount.json`);
      expect(res.status).to.equal(401);
      expect(res.headers.get('www-authenticate')).to.match(/^Basic /);
    });
  });

  describe('which mode applies', () => {
    it('uses header mode whenever the key header is present, even beside valid Basic credentials', async () => {
      expect(await status({ 'SERVICE-API-USER': user, 'SERVICE-API-KEY': 'wrong', authorization: basic(user, key) })).to.equal(401);
      expect(await status({ 'SERVICE-API-USER': user, 'SERVICE-API-KEY': key, authorization: basic(user, 'wrong') })).to.equal(200);
    });

    it('falls back to Basic when only the user header is sent', async () => {
      expect(await status({ 'SERVICE-API-USER': 'someone-else', authorization: basic(user, key) })).to.equal(200);
    });
  });

  describe("the key's company is the caller's company", () => {
    let second: Credential;
    before(async () => {
      const company = await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Second company', auth: server.installationCredential });
      expect(company.status).to.equal(200);
      second = await server.credentialFor(company.json.response);
    });

    it("reads and writes that company's settings", async () => {
      const set = await server.request('PUT', '/api/settings/set.json', { body: 'key=timezone&value=Asia/Tokyo', auth: second });
      expect(set.status).to.equal(200);
      expect((await server.request('GET', '/api/settings/get.json?key=timezone', { auth: second })).json.response).to.equal('Asia/Tokyo');
      expect((await server.request('GET', '/api/settings/get.json?key=timezone')).json.response).to.equal('UTC');
    });

    it("lists that company's credentials", async () => {
      const listed = await server.request('GET', '/api/api_keys/getList.json', { auth: second });
      expect(listed.json.response.map((r: { user: string }) => r.user)).to.deep.equal([second.user]);
    });
  });
});
