import { expect } from 'chai';
import { BAD_SYNTAX, EchoServer, expect400, startEchoServer } from '../../support/echo-client';
import { rawRequest } from '../../support/raw-http';

/** Invalid UTF-8 anywhere and body types the API does not read: a clear 400, never silently replaced or misread. */
describe('body encodings over HTTP', () => {
  let echo: EchoServer;
  before(async () => {
    echo = await startEchoServer();
  });
  after(() => echo.closeAfterChecking());

  describe('invalid UTF-8', () => {
    it('refuses percent-encoded invalid UTF-8 in the query and in a form body', async () => {
      expect400(await echo.query('vars[a]=%FF%FE'), 'vars[a]', 'format');
      expect400(await echo.form('vars[a]=%C3'), 'vars[a]', 'format');
      expect400(await echo.query('vars[%FF]=1'), 'vars[%FF]', 'format');
    });

    it('refuses raw invalid bytes in the request line with a 400 in JSON', async () => {
      const res = await rawRequest(echo.server.url, { method: 'GET', path: '/api/spec_probe/echo.json?vars[a]=\xff', auth: echo.server.credential });
      expect(res.status).to.equal(400);
      expect(res.json).to.deep.equal({ message: BAD_SYNTAX });
    });

    it('refuses raw invalid bytes in form and JSON bodies', async () => {
      const bad = Buffer.from([0xff, 0xfe]);
      const formBody = Buffer.concat([Buffer.from('vars[a]='), bad]);
      const headers = { 'content-type': 'application/x-www-form-urlencoded' };
      expect400(await rawRequest(echo.server.url, { method: 'POST', path: '/api/spec_probe/echo.json', headers, body: formBody, auth: echo.server.credential }), 'request_body', 'format');
      expect400(await echo.json(Buffer.concat([Buffer.from('{"vars":{"a":"'), bad, Buffer.from('"}}')])), 'request_body', 'format');
      expect400(await echo.json('{"vars":{"a":"\\ud800"}}'), 'vars[a]', 'format');
    });

    it('refuses raw invalid bytes in multipart values and names instead of replacing them', async () => {
      const boundary = 'tally-spec-boundary';
      const part = (name: Buffer, value: Buffer) => Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="`), name, Buffer.from('"\r\n\r\n'), value, Buffer.from('\r\n')]);
      const send = (name: Buffer, value: Buffer) =>
        rawRequest(echo.server.url, {
          method: 'POST',
          path: '/api/spec_probe/echo.json',
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
          body: Buffer.concat([part(name, value), Buffer.from(`--${boundary}--\r\n`)]),
          auth: echo.server.credential,
        });
      expect400(await send(Buffer.from('vars[a]'), Buffer.from([0x41, 0xff])), 'vars[a]', 'format');
      expect400(await send(Buffer.from([0x76, 0xff]), Buffer.from('x')), 'request_body', 'format');
      // Valid UTF-8 survives byte for byte.
      const ok = await send(Buffer.from('vars[zürich]'), Buffer.from('✓ ü'));
      expect(ok.json).to.deep.equal({ response: { zürich: '✓ ü' } });
    });
  });

  describe('body content types', () => {
    const send = (contentType: string | undefined, body: string) =>
      rawRequest(echo.server.url, { method: 'POST', path: '/api/spec_probe/echo.json', headers: contentType ? { 'content-type': contentType } : {}, body, auth: echo.server.credential });

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
});
