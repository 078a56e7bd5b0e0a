import { expect } from 'chai';
import { EchoServer, expect400, startEchoServer } from '../../support/echo-client';
import { chunkedRequest, exchangeOnOneConnection } from '../../support/raw-http';

const MiB = 1024 * 1024;

/** Huge bodies (413), long lists that must stay lists, and the limits on lists, counts and nesting. */
describe('large input over HTTP', () => {
  let echo: EchoServer;
  before(async () => {
    echo = await startEchoServer();
  });
  after(() => echo.closeAfterChecking());

  describe('huge bodies', () => {
    const huge = 'vars[a]=' + 'x'.repeat(8 * MiB + 1);

    it('answers 413 to a form body over 8 MiB', async () => {
      const res = await echo.form(huge);
      expect(res.status).to.equal(413);
      expect(res.json).to.deep.equal({ message: 'The request is too large.' });
    });

    it('answers 413 to JSON and multipart bodies over 8 MiB', async () => {
      expect((await echo.json(JSON.stringify({ vars: { a: 'x'.repeat(8 * MiB + 1) } }))).status).to.equal(413);
      expect((await echo.multipart([['vars[a]', 'x'.repeat(8 * MiB + 1)]])).status).to.equal(413);
    });

    it('answers 413 to a chunked body of unknown length, and keeps serving that connection', async () => {
      const { user, key } = echo.server.credential;
      const head = `POST /api/spec_probe/echo.json HTTP/1.1\r\nhost: spec\r\nSERVICE-API-USER: ${user}\r\nSERVICE-API-KEY: ${key}\r\ncontent-type: application/x-www-form-urlencoded`;
      const next = `GET /api/spec_probe/echo.json?vars[a]=1 HTTP/1.1\r\nhost: spec\r\nSERVICE-API-USER: ${user}\r\nSERVICE-API-KEY: ${key}\r\nconnection: close\r\n\r\n`;
      // Well past the limit, so most of the body is still unread when the 413 goes out.
      const received = await exchangeOnOneConnection(echo.server.url, [chunkedRequest(head, Buffer.from('vars[a]=' + 'x'.repeat(12 * MiB))), next]);
      expect(received).to.match(/^HTTP\/1\.1 413 /);
      expect(received).to.match(/HTTP\/1\.1 200 [^]*\{"response":\{"a":"1"\}\}$/);
    });

    it('answers a request head over the size limit with a 431 in JSON', async () => {
      const res = await echo.server.request('GET', `/api/spec_probe/echo.json?vars[a]=${'x'.repeat(100_000)}`);
      expect(res.status).to.equal(431);
      expect(res.json.message).to.match(/too large/);
    });

    it('accepts a large body under the limit', async () => {
      const res = await echo.form('vars[a]=' + 'y'.repeat(MiB));
      expect(res.status).to.equal(200);
      expect(res.json.response.a).to.have.length(MiB);
    });
  });

  describe('large lists and deep nesting', () => {
    const lines = (count: number) =>
      Array.from({ length: count }, (_, i) => [
        [`vars[lines][${i}][description]`, `line${i}`],
        [`vars[lines][${i}][amount]`, `${i}.00`],
      ]).flat() as [string, string][];
    const expectLines = (res: { status: number; json: any }, count: number) => {
      expect(res.status, JSON.stringify(res.json)).to.equal(200);
      const list = res.json.response.lines;
      expect(list).to.be.an('array').with.length(count);
      expect(list[0]).to.deep.equal({ description: 'line0', amount: '0.00' });
      expect(list[count - 1]).to.deep.equal({ description: `line${count - 1}`, amount: `${count - 1}.00` });
    };

    it('keeps a 500-line bracket list a list, in order, in form, multipart and JSON bodies', async () => {
      const fields = lines(500);
      expectLines(await echo.form(new URLSearchParams(fields).toString()), 500);
      expectLines(await echo.multipart(fields), 500);
      const asJson = { vars: { lines: Array.from({ length: 500 }, (_, i) => ({ description: `line${i}`, amount: `${i}.00` })) } };
      expectLines(await echo.json(JSON.stringify(asJson)), 500);
    });

    it('keeps a 500-line list a list in the query string too', async () => {
      expectLines(await echo.query(new URLSearchParams(lines(500)).toString()), 500);
    });

    it('refuses lists and parameter counts past the limits with a 400', async () => {
      expect400(await echo.form(Array.from({ length: 1001 }, (_, i) => `vars[lines][${i}][amount]=1`).join('&')), 'vars[lines][1000]', 'max');
      expect400(await echo.form(Array.from({ length: 5001 }, (_, i) => `p${i}=1`).join('&')), 'p5000', 'max');
      // Multipart too: a count, not a size, so 400 as in every other encoding, not 413.
      expect400(await echo.multipart(Array.from({ length: 5001 }, (_, i): [string, string] => [`p${i}`, '1'])), 'request_body', 'max');
    });

    it('accepts 8 levels of brackets and refuses 9, in the query and in JSON', async () => {
      const eight = 'vars' + '[a]'.repeat(8);
      expect((await echo.query(`${eight}=1`)).status).to.equal(200);
      expect400(await echo.query(`${eight}[b]=1`), `${eight}[b]`, 'format');
      const deep = '{"vars":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}';
      expect((await echo.json(deep)).status).to.equal(400);
    });
  });
});
