import { expect } from 'chai';
import { EchoServer, expect400, startEchoServer } from '../../support/echo-client';
import { rawRequest } from '../../support/raw-http';

/** Malformed names, forbidden keys, wrong types, unknown formats and SQL-looking text: each a clear 4xx or stored verbatim. */
describe('bad parameters over HTTP', () => {
  let echo: EchoServer;
  before(async () => {
    echo = await startEchoServer();
  });
  after(() => echo.closeAfterChecking());

  describe('malformed brackets', () => {
    const names = ['vars[a', 'vars]a[', 'vars[a]]', '[a]', 'vars[[a]]', 'vars[a]x', 'vars[][x]'];
    for (const name of names) {
      it(`refuses ${name} in the query and in a form body`, async () => {
        expect400(await echo.query(`${encodeURIComponent(name)}=1`), name, 'format');
        expect400(await echo.form(`${encodeURIComponent(name)}=1`), name, 'format');
      });
    }

    it('refuses a name used both as a value and as a list', async () => {
      expect400(await echo.query('vars[a]=1&vars[a][b]=2'), 'vars[a][b]', 'format');
    });
  });

  describe('__proto__ and constructor keys', () => {
    const names = ['__proto__[polluted]', 'vars[__proto__][polluted]', 'vars[constructor][prototype][polluted]', 'constructor', 'vars[a][prototype]'];
    for (const name of names) {
      it(`refuses ${name} in the query, a form body and a multipart body`, async () => {
        expect400(await echo.query(`${name}=1`), name, 'valid');
        expect400(await echo.form(`${name}=1`), name, 'valid');
        expect400(await echo.multipart([[name, '1']]), name, 'valid');
      });
    }

    it('refuses a bare __proto__ field in a multipart body under its own name', async () => {
      expect400(await echo.multipart([['__proto__', '1']]), '__proto__', 'valid');
    });

    it('refuses them as JSON keys', async () => {
      expect400(await echo.json('{"vars":{"__proto__":{"polluted":true}}}'), 'vars[__proto__]', 'valid');
      expect400(await echo.json('{"__proto__":{"polluted":true}}'), '__proto__', 'valid');
      expect400(await echo.json('{"vars":{"constructor":{"prototype":{"polluted":true}}}}'), 'vars[constructor]', 'valid');
    });
  });

  describe('wrong types', () => {
    it('refuses vars sent as a single string', async () => {
      expect400(await echo.form('vars=string'), 'vars', 'format');
    });

    it('refuses a user_id that is not a whole number, in every shape', async () => {
      for (const q of ['user_id=abc', 'user_id=1.5', 'user_id[]=1', 'user_id[a]=1', 'user_id=99999999999999999999', 'user_id=']) {
        expect400(await echo.server.request('GET', `/api/users/get.json?${q}`), 'user_id', 'format');
      }
      for (const value of ['true', 'null', '{}', '[1]', '1.5']) {
        expect400(
          await rawRequest(echo.server.url, {
            method: 'POST',
            path: '/api/users/get.json',
            headers: { 'content-type': 'application/json' },
            body: `{"user_id":${value}}`,
            auth: echo.server.credential,
          }),
          'user_id',
          'format',
        );
      }
    });

    it('refuses a username sent as a list or a set instead of text', async () => {
      for (const username of ['vars[username][]=ada', 'vars[username][x]=ada']) {
        const res = await echo.server.request('POST', '/api/users/add.json', { body: `${username}&vars[new_password]=secret1&vars[confirm_password]=secret1` });
        expect(res.status, res.text).to.equal(400);
        expect(res.json.errors).to.have.property('username');
      }
      expect((await echo.server.request('GET', '/api/users/getListCount.json')).json.response).to.equal(0);
    });

    it('refuses a list or a set where a declared text field of vars belongs, and keeps nothing', async () => {
      // Models wrote String() of it: a client named "A,B" or "[object Object]", an invoice line, a
      // payment's message, a group's or a tax's name likewise.
      const server = echo.server;
      const client = (await server.request('POST', '/api/clients/add.json', { body: 'vars[first_name]=Ada&vars[last_name]=Lovelace&vars[email]=ada@example.com' })).json.response;
      const invoice = `vars[client_id]=${client}&vars[date_billed]=2026-01-01T00:00:00Z&vars[date_due]=2026-02-01T00:00:00Z&vars[currency]=USD`;
      const calls: Array<[string, string, string, string, string]> = [
        ['POST', 'clients/add', 'vars[last_name]=B&vars[email]=b@example.com', 'vars[first_name]', 'first_name'],
        ['PUT', 'clients/edit', `client_id=${client}`, 'vars[address1]', 'address1'],
        ['POST', 'client_groups/add', 'vars[color]=ffffff', 'vars[name]', 'name'],
        ['POST', 'taxes/add', 'vars[level]=1&vars[amount]=5&vars[type]=exclusive', 'vars[name]', 'name'],
        ['PUT', 'companies/edit', 'company_id=1', 'vars[name]', 'name'],
        ['POST', 'invoices/add', `${invoice}&vars[lines][0][amount]=1`, 'vars[lines][0][description]', 'lines[0][description]'],
        ['POST', 'invoices/add', `${invoice}&vars[lines][0][description]=x&vars[lines][0][amount]=1`, 'vars[note_public]', 'note_public'],
        ['POST', 'transactions/add', `vars[client_id]=${client}&vars[amount]=1&vars[currency]=USD`, 'vars[message]', 'message'],
        ['POST', 'transactions/addType', 'vars[type]=debit', 'vars[name]', 'name'],
        ['POST', 'api_keys/add', '', 'vars[notes]', 'notes'],
      ];
      const counts = async () =>
        Promise.all(
          ['clients', 'contacts', 'client_groups', 'taxes', 'invoices', 'transactions', 'transaction_types', 'api_keys'].map(
            async (t) =>
              (
                await server.installation.db
                  .selectFrom(t as 'clients')
                  .select('id')
                  .execute()
              ).length,
          ),
        );
      const before = await counts();
      const names = async () =>
        JSON.stringify([await server.installation.db.selectFrom('companies').select('name').execute(), await server.installation.db.selectFrom('contacts').select('address1').execute()]);
      const kept = await names();
      for (const [verb, path, rest, name, key] of calls) {
        for (const value of [`${name}[]=A&${name}[]=B`, `${name}[x]=A`]) {
          const res = await server.request(verb, `/api/${path}.json`, { body: `${rest}${rest ? '&' : ''}${value}` });
          expect(res.status, `${path} ${value}: ${res.text}`).to.equal(400);
          expect(res.json.errors, `${path} ${value}`).to.have.property(key).that.has.property('format');
        }
      }
      expect(await counts()).to.deep.equal(before);
      expect(await names()).to.equal(kept);
    });
  });

  describe('SQL-looking strings', () => {
    const nasty = ["Robert'); DROP TABLE users;--", "' OR '1'='1", '"; SELECT * FROM api_keys; --', "\\x00\\' UNION SELECT 1"];
    for (const text of nasty) {
      it(`stores and returns ${JSON.stringify(text)} verbatim`, async () => {
        const body = new URLSearchParams({ 'vars[username]': text, 'vars[new_password]': 'secret1', 'vars[confirm_password]': 'secret1' }).toString();
        const added = await echo.server.request('POST', '/api/users/add.json', { body });
        expect(added.status, added.text).to.equal(200);
        const got = await echo.server.request('GET', `/api/users/get.json?user_id=${added.json.response}`);
        expect(got.json.response.username).to.equal(text);
        const auth = new URLSearchParams({ username: text, 'vars[username]': text, 'vars[password]': "' OR '1'='1" }).toString();
        expect((await echo.server.request('POST', '/api/users/auth.json', { body: auth })).json).to.deep.equal({ response: false });
      });
    }
  });

  describe('unknown formats', () => {
    for (const token of ['yaml', 'json5', 'php5', 'exe', 'json%00', 'xml%20']) {
      it(`answers 415 in JSON to .${token}`, async () => {
        const res = await echo.server.request('GET', `/api/users/getListCount.${token}`);
        expect(res.status).to.equal(415);
        expect(res.json).to.deep.equal({ message: 'The format requested is not supported by the server.' });
      });
    }
  });
});
