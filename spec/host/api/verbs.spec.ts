import { expect } from 'chai';
import { chunkedRequest, exchangeOnOneConnection, rawRequest } from '../../support/raw-http';
import { installSpecProbe } from '../../support/spec-models';
import { startTestServer, TestServer } from '../../support/test-server';

describe('verb rules over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    installSpecProbe(server.installation);
  });
  after(() => server.close());

  const echo = (verb: string, query: string, body?: string) => server.request(verb, `/api/spec_probe/echo.json${query}`, { body });

  describe('GET and DELETE read only the query string', () => {
    it('GET passes the query parameters', async () => {
      expect((await echo('GET', '?vars[a]=1&vars[b][]=x')).json).to.deep.equal({ response: { a: '1', b: ['x'] } });
    });

    it('DELETE passes the query parameters', async () => {
      expect((await echo('DELETE', '?vars[a]=1')).json).to.deep.equal({ response: { a: '1' } });
      const added = await server.request('POST', '/api/users/add.json', { body: 'vars[username]=gone&vars[new_password]=secret1&vars[confirm_password]=secret1' });
      expect((await server.request('DELETE', `/api/users/delete.json?user_id=${added.json.response}`)).status).to.equal(200);
      expect((await server.request('GET', `/api/users/get.json?user_id=${added.json.response}`)).json.response).to.equal(false);
    });

    for (const verb of ['GET', 'DELETE']) {
      it(`${verb} with a body is refused with a clear 400 rather than ignored`, async () => {
        const res = await rawRequest(server.url, {
          method: verb,
          path: '/api/users/get.json?user_id=1',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'user_id=2',
          auth: server.credential,
        });
        expect(res.status).to.equal(400);
        expect(res.json.message).to.equal('The request cannot be fulfilled due to bad syntax.');
        expect(res.json.errors.request_body.valid).to.contain('query string only');
      });
    }
  });

  describe('GET and DELETE with chunked encoding', () => {
    const credentialHeaders = () => `service-api-user: ${server.credential.user}\r\nservice-api-key: ${server.credential.key}\r\nhost: localhost`;

    it('accept an empty chunked body, which some clients always send', async () => {
      const head = `DELETE /api/spec_probe/echo.json?vars[a]=1 HTTP/1.1\r\n${credentialHeaders()}\r\nconnection: close`;
      const answer = await exchangeOnOneConnection(server.url, [chunkedRequest(head, Buffer.alloc(0))]);
      expect(answer).to.match(/^HTTP\/1\.1 200/);
      expect(answer).to.contain('{"response":{"a":"1"}}');
    });

    it('refuse a chunked body that carries something', async () => {
      const head = `DELETE /api/spec_probe/echo.json?vars[a]=1 HTTP/1.1\r\n${credentialHeaders()}\r\nconnection: close`;
      const answer = await exchangeOnOneConnection(server.url, [chunkedRequest(head, Buffer.from('vars[b]=2'))]);
      expect(answer).to.match(/^HTTP\/1\.1 400/);
      expect(answer).to.contain('query string only');
    });
  });

  describe('POST and PUT read only the body', () => {
    for (const verb of ['POST', 'PUT']) {
      it(`${verb} passes the body parameters and not those of the query string`, async () => {
        expect((await echo(verb, '?vars[from_query]=1', 'vars[from_body]=2')).json).to.deep.equal({ response: { from_body: '2' } });
      });
    }

    it('POST with its parameters only in the query answers as if none were sent', async () => {
      const res = await server.request('POST', '/api/users/get.json?user_id=1');
      expect(res.status).to.equal(400);
      expect(res.json.errors).to.have.keys('user_id');
      expect(res.json.errors.user_id).to.have.property('empty');
    });
  });

  describe('other verbs', () => {
    for (const verb of ['PATCH', 'OPTIONS', 'HEAD']) {
      it(`${verb} answers 405 with Allow`, async () => {
        const res = await fetch(`${server.url}/api/users/get.json?user_id=1`, {
          method: verb,
          headers: { 'SERVICE-API-USER': server.credential.user, 'SERVICE-API-KEY': server.credential.key },
        });
        expect(res.status).to.equal(405);
        expect(res.headers.get('allow')).to.equal('GET, POST, PUT, DELETE');
        if (verb !== 'HEAD') expect((await res.json()).message).to.match(/Use GET, POST, PUT or DELETE/);
      });
    }
  });

  describe('body encodings agree', () => {
    const fields: [string, string][] = [
      ['vars[client_id]', '7'],
      ['vars[lines][0][description]', 'Hosting'],
      ['vars[lines][0][amount]', '10.50'],
      ['vars[lines][1][description]', 'Domain, "quoted" & ampersand'],
      ['vars[lines][1][amount]', '2'],
      ['vars[delivery][]', 'email'],
      ['vars[delivery][]', 'paper'],
    ];
    const expected = {
      client_id: '7',
      lines: [
        { description: 'Hosting', amount: '10.50' },
        { description: 'Domain, "quoted" & ampersand', amount: '2' },
      ],
      delivery: ['email', 'paper'],
    };

    const viaFetch = async (verb: string, body: BodyInit, contentType?: string) => {
      const headers: Record<string, string> = { 'SERVICE-API-USER': server.credential.user, 'SERVICE-API-KEY': server.credential.key };
      if (contentType) headers['content-type'] = contentType;
      const res = await fetch(`${server.url}/api/spec_probe/echo.json`, { method: verb, headers, body });
      return { status: res.status, json: await res.json() };
    };

    for (const verb of ['POST', 'PUT']) {
      it(`${verb}: form-urlencoded, multipart and JSON give the same parameters`, async () => {
        const form = await viaFetch(verb, new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded');
        const multipart = new FormData();
        for (const [name, value] of fields) multipart.append(name, value);
        const viaMultipart = await viaFetch(verb, multipart);
        const viaJson = await viaFetch(verb, JSON.stringify({ vars: expected }), 'application/json');
        for (const res of [form, viaMultipart, viaJson]) expect(res).to.deep.equal({ status: 200, json: { response: expected } });
      });
    }

    it('a validation error reads the same in every encoding', async () => {
      const vars = { username: '', new_password: 'abc', confirm_password: 'abd' };
      const names = Object.entries(vars).map(([k, v]) => [`vars[${k}]`, v]);
      const multipart = new FormData();
      for (const [name, value] of names) multipart.append(name, value);
      const url = `${server.url}/api/users/add.json`;
      const headers = { 'SERVICE-API-USER': server.credential.user, 'SERVICE-API-KEY': server.credential.key };
      const answers = await Promise.all([
        fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(names).toString() }),
        fetch(url, { method: 'POST', headers, body: multipart }),
        fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ vars }) }),
      ]);
      const bodies = await Promise.all(answers.map((a) => a.text()));
      expect(answers.map((a) => a.status)).to.deep.equal([400, 400, 400]);
      expect(new Set(bodies).size, bodies.join('\n')).to.equal(1);
    });
  });
});
