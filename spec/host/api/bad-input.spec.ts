import { expect } from 'chai';
import { chunkedRequest, exchangeOnOneConnection, rawRequest } from '../../support/raw-http';
import { installSpecProbe } from '../../support/spec-models';
import { startTestServer, TestServer } from '../../support/test-server';

const BAD_SYNTAX = 'The request cannot be fulfilled due to bad syntax.';
const MiB = 1024 * 1024;

/** Bad input of every kind gets a clear 4xx; nothing crashes, nothing leaks into Object.prototype. */
describe('bad input over HTTP', () => {
  let server: TestServer;
  let auth: Record<string, string>;
  before(async () => {
    server = await startTestServer();
    installSpecProbe(server.installation);
    auth = { 'SERVICE-API-USER': server.credential.user, 'SERVICE-API-KEY': server.credential.key };
  });
  after(async () => {
    // After the whole barrage the server still answers, and nothing was polluted.
    expect((await server.request('GET', '/api/users/getListCount.json')).status).to.equal(200);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    await server.close();
  });

  const query = (q: string) => server.request('GET', `/api/spec_probe/echo.json?${q}`);
  const form = (body: string) => server.request('POST', '/api/spec_probe/echo.json', { body });
  const json = (body: string | Buffer) =>
    rawRequest(server.url, { method: 'POST', path: '/api/spec_probe/echo.json', headers: { 'content-type': 'application/json' }, body, auth: server.credential });
  const multipart = async (fields: [string, string][]) => {
    const data = new FormData();
    for (const [name, value] of fields) data.append(name, value);
    const res = await fetch(`${server.url}/api/spec_probe/echo.json`, { method: 'POST', headers: auth, body: data });
    return { status: res.status, json: await res.json() };
  };
  const expect400 = (res: { status: number; json: any }, name: string, code: string) => {
    expect(res.status, JSON.stringify(res.json)).to.equal(400);
    expect(res.json.message).to.equal(BAD_SYNTAX);
    expect(res.json.errors, JSON.stringify(res.json.errors)).to.have.property(name).that.has.property(code);
  };

  describe('malformed brackets', () => {
    const names = ['vars[a', 'vars]a[', 'vars[a]]', '[a]', 'vars[[a]]', 'vars[a]x', 'vars[][x]'];
    for (const name of names) {
      it(`refuses ${name} in the query and in a form body`, async () => {
        expect400(await query(`${encodeURIComponent(name)}=1`), name, 'format');
        expect400(await form(`${encodeURIComponent(name)}=1`), name, 'format');
      });
    }

    it('refuses a name used both as a value and as a list', async () => {
      expect400(await query('vars[a]=1&vars[a][b]=2'), 'vars[a][b]', 'format');
    });
  });

  describe('__proto__ and constructor keys', () => {
    const names = ['__proto__[polluted]', 'vars[__proto__][polluted]', 'vars[constructor][prototype][polluted]', 'constructor', 'vars[a][prototype]'];
    for (const name of names) {
      it(`refuses ${name} in the query, a form body and a multipart body`, async () => {
        expect400(await query(`${name}=1`), name, 'valid');
        expect400(await form(`${name}=1`), name, 'valid');
        expect400(await multipart([[name, '1']]), name, 'valid');
      });
    }

    it('refuses a bare __proto__ field in a multipart body under its own name', async () => {
      expect400(await multipart([['__proto__', '1']]), '__proto__', 'valid');
    });

    it('refuses them as JSON keys', async () => {
      expect400(await json('{"vars":{"__proto__":{"polluted":true}}}'), 'vars[__proto__]', 'valid');
      expect400(await json('{"__proto__":{"polluted":true}}'), '__proto__', 'valid');
      expect400(await json('{"vars":{"constructor":{"prototype":{"polluted":true}}}}'), 'vars[constructor]', 'valid');
    });
  });

  describe('huge bodies', () => {
    const huge = 'vars[a]=' + 'x'.repeat(8 * MiB + 1);

    it('answers 413 to a form body over 8 MiB', async () => {
      const res = await form(huge);
      expect(res.status).to.equal(413);
      expect(res.json).to.deep.equal({ message: 'The request is too large.' });
    });

    it('answers 413 to JSON and multipart bodies over 8 MiB', async () => {
      expect((await json(JSON.stringify({ vars: { a: 'x'.repeat(8 * MiB + 1) } }))).status).to.equal(413);
      expect((await multipart([['vars[a]', 'x'.repeat(8 * MiB + 1)]])).status).to.equal(413);
    });

    it('answers 413 to a chunked body of unknown length, and keeps serving that connection', async () => {
      const { user, key } = server.credential;
      const head = `POST /api/spec_probe/echo.json HTTP/1.1\r\nhost: spec\r\nSERVICE-API-USER: ${user}\r\nSERVICE-API-KEY: ${key}\r\ncontent-type: application/x-www-form-urlencoded`;
      const next = `GET /api/spec_probe/echo.json?vars[a]=1 HTTP/1.1\r\nhost: spec\r\nSERVICE-API-USER: ${user}\r\nSERVICE-API-KEY: ${key}\r\nconnection: close\r\n\r\n`;
      // Well past the limit, so most of the body is still unread when the 413 goes out.
      const received = await exchangeOnOneConnection(server.url, [chunkedRequest(head, Buffer.from('vars[a]=' + 'x'.repeat(12 * MiB))), next]);
      expect(received).to.match(/^HTTP\/1\.1 413 /);
      expect(received).to.match(/HTTP\/1\.1 200 [^]*\{"response":\{"a":"1"\}\}$/);
    });

    it('accepts a large body under the limit', async () => {
      const res = await form('vars[a]=' + 'y'.repeat(MiB));
      expect(res.status).to.equal(200);
      expect(res.json.response.a).to.have.length(MiB);
    });
  });

  describe('invalid UTF-8', () => {
    it('refuses percent-encoded invalid UTF-8 in the query and in a form body', async () => {
      expect400(await query('vars[a]=%FF%FE'), 'vars[a]', 'format');
      expect400(await form('vars[a]=%C3'), 'vars[a]', 'format');
      expect400(await query('vars[%FF]=1'), 'vars[%FF]', 'format');
    });

    it('refuses raw invalid bytes in the request line with a 400 in JSON', async () => {
      const res = await rawRequest(server.url, { method: 'GET', path: '/api/spec_probe/echo.json?vars[a]=\xff', auth: server.credential });
      expect(res.status).to.equal(400);
      expect(res.json).to.deep.equal({ message: BAD_SYNTAX });
    });

    it('answers a request head over the size limit with a 431 in JSON', async () => {
      const res = await server.request('GET', `/api/spec_probe/echo.json?vars[a]=${'x'.repeat(20_000)}`);
      expect(res.status).to.equal(431);
      expect(res.json.message).to.match(/too large/);
    });

    it('refuses raw invalid bytes in form and JSON bodies', async () => {
      const bad = Buffer.from([0xff, 0xfe]);
      const formBody = Buffer.concat([Buffer.from('vars[a]='), bad]);
      const headers = { 'content-type': 'application/x-www-form-urlencoded' };
      expect400(await rawRequest(server.url, { method: 'POST', path: '/api/spec_probe/echo.json', headers, body: formBody, auth: server.credential }), 'request_body', 'format');
      expect400(await json(Buffer.concat([Buffer.from('{"vars":{"a":"'), bad, Buffer.from('"}}')])), 'request_body', 'format');
      expect400(await json('{"vars":{"a":"\\ud800"}}'), 'vars[a]', 'format');
    });

    it('refuses raw invalid bytes in multipart values and names instead of replacing them', async () => {
      const boundary = 'tally-spec-boundary';
      const part = (name: Buffer, value: Buffer) =>
        Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="`), name, Buffer.from('"\r\n\r\n'), value, Buffer.from('\r\n')]);
      const send = (name: Buffer, value: Buffer) =>
        rawRequest(server.url, {
          method: 'POST',
          path: '/api/spec_probe/echo.json',
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
          body: Buffer.concat([part(name, value), Buffer.from(`--${boundary}--\r\n`)]),
          auth: server.credential,
        });
      expect400(await send(Buffer.from('vars[a]'), Buffer.from([0x41, 0xff])), 'vars[a]', 'format');
      expect400(await send(Buffer.from([0x76, 0xff]), Buffer.from('x')), 'request_body', 'format');
      // Valid UTF-8 survives byte for byte.
      const ok = await send(Buffer.from('vars[zürich]'), Buffer.from('✓ ü'));
      expect(ok.json).to.deep.equal({ response: { 'zürich': '✓ ü' } });
    });
  });

  describe('body content types', () => {
    const send = (contentType: string | undefined, body: string) =>
      rawRequest(server.url, { method: 'POST', path: '/api/spec_probe/echo.json', headers: contentType ? { 'content-type': contentType } : {}, body, auth: server.credential });

    it('refuses a body of a type it does not read, rather than misreading it as a form', async () => {
      for (const type of ['text/plain', 'application/xml', 'application/octet-stream']) {
        expect400(await send(type, '{"vars":{"a":"1"}}'), 'request_body', 'format');
      }
    });

    it('reads a body without a content type as a form, and JSON with a charset as JSON', async () => {
      expect((await send(undefined, 'vars[a]=1')).json).to.deep.equal({ response: { a: '1' } });
      expect((await send('application/json; charset=utf-8', '{"vars":{"a":"1"}}')).json).to.deep.equal({ response: { a: '1' } });
    });
  });

  describe('unknown formats', () => {
    for (const token of ['yaml', 'json5', 'php5', 'exe', 'json%00', 'xml%20']) {
      it(`answers 415 in JSON to .${token}`, async () => {
        const res = await server.request('GET', `/api/users/getListCount.${token}`);
        expect(res.status).to.equal(415);
        expect(res.json).to.deep.equal({ message: 'The format requested is not supported by the server.' });
      });
    }
  });

  describe('wrong types', () => {
    it('refuses vars sent as a single string', async () => {
      expect400(await form('vars=string'), 'vars', 'format');
    });

    it('refuses a user_id that is not a whole number, in every shape', async () => {
      for (const q of ['user_id=abc', 'user_id=1.5', 'user_id[]=1', 'user_id[a]=1', 'user_id=99999999999999999999', 'user_id=']) {
        expect400(await server.request('GET', `/api/users/get.json?${q}`), 'user_id', 'format');
      }
      for (const value of ['true', 'null', '{}', '[1]', '1.5']) {
        expect400(await rawRequest(server.url, {
          method: 'POST',
          path: '/api/users/get.json',
          headers: { 'content-type': 'application/json' },
          body: `{"user_id":${value}}`,
          auth: server.credential,
        }), 'user_id', 'format');
      }
    });

    it('refuses a username sent as a list or a set instead of text', async () => {
      for (const username of ['vars[username][]=ada', 'vars[username][x]=ada']) {
        const res = await server.request('POST', '/api/users/add.json', { body: `${username}&vars[new_password]=secret1&vars[confirm_password]=secret1` });
        expect(res.status, res.text).to.equal(400);
        expect(res.json.errors).to.have.property('username');
      }
      expect((await server.request('GET', '/api/users/getListCount.json')).json.response).to.equal(0);
    });
  });

  describe('SQL-looking strings', () => {
    const nasty = ["Robert'); DROP TABLE users;--", "' OR '1'='1", '"; SELECT * FROM api_keys; --', '\\x00\\\' UNION SELECT 1'];
    for (const text of nasty) {
      it(`stores and returns ${JSON.stringify(text)} verbatim`, async () => {
        const body = new URLSearchParams({ 'vars[username]': text, 'vars[new_password]': 'secret1', 'vars[confirm_password]': 'secret1' }).toString();
        const added = await server.request('POST', '/api/users/add.json', { body });
        expect(added.status, added.text).to.equal(200);
        const got = await server.request('GET', `/api/users/get.json?user_id=${added.json.response}`);
        expect(got.json.response.username).to.equal(text);
        const auth = new URLSearchParams({ username: text, 'vars[username]': text, 'vars[password]': "' OR '1'='1" }).toString();
        expect((await server.request('POST', '/api/users/auth.json', { body: auth })).json).to.deep.equal({ response: false });
      });
    }
  });

  describe('large lists and deep nesting', () => {
    const lines = (count: number) => Array.from({ length: count }, (_, i) => [[`vars[lines][${i}][description]`, `line${i}`], [`vars[lines][${i}][amount]`, `${i}.00`]]).flat() as [string, string][];
    const expectLines = (res: { status: number; json: any }, count: number) => {
      expect(res.status, JSON.stringify(res.json)).to.equal(200);
      const list = res.json.response.lines;
      expect(list).to.be.an('array').with.length(count);
      expect(list[0]).to.deep.equal({ description: 'line0', amount: '0.00' });
      expect(list[count - 1]).to.deep.equal({ description: `line${count - 1}`, amount: `${count - 1}.00` });
    };

    it('keeps a 500-line bracket list a list, in order, in form, multipart and JSON bodies', async () => {
      const fields = lines(500);
      expectLines(await form(new URLSearchParams(fields).toString()), 500);
      expectLines(await multipart(fields), 500);
      const asJson = { vars: { lines: Array.from({ length: 500 }, (_, i) => ({ description: `line${i}`, amount: `${i}.00` })) } };
      expectLines(await json(JSON.stringify(asJson)), 500);
    });

    it('keeps a long list a list in the query string too', async () => {
      // 500 lines would not fit Node's 16 KiB request-head limit; such invoices belong in a body.
      expectLines(await query(new URLSearchParams(lines(150)).toString()), 150);
    });

    it('refuses lists and parameter counts past the limits with a 400', async () => {
      expect400(await form(`vars[lines][1000][amount]=1`), 'vars[lines][1000][amount]', 'max');
      expect400(await form(Array.from({ length: 5001 }, (_, i) => `p${i}=1`).join('&')), 'p5000', 'max');
    });

    it('accepts 8 levels of brackets and refuses 9, in the query and in JSON', async () => {
      const eight = 'vars' + '[a]'.repeat(8);
      expect((await query(`${eight}=1`)).status).to.equal(200);
      expect400(await query(`${eight}[b]=1`), `${eight}[b]`, 'format');
      const deep = '{"vars":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}';
      expect((await json(deep)).status).to.equal(400);
    });
  });
});
