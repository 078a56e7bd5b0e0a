import { expect } from 'chai';
import { convert } from 'xmlbuilder2';
import { phpAccess, phpAvailable, phpUnserialize } from '../../support/php';
import { startTestServer, TestServer } from '../../support/test-server';

const XML_PROLOG = '<?xml version="1.0" encoding="UTF-8"?>';
const mediaType = (contentType: string) => contentType.split(';')[0].trim().toLowerCase();
const parseXml = (text: string) => convert(text, { format: 'object' }) as Record<string, any>;

describe('response formats over HTTP', () => {
  let server: TestServer;
  let userId: number;
  before(async () => {
    server = await startTestServer();
    for (const name of ['ada', 'grace']) {
      const added = await server.request('POST', '/api/users/add.json', { body: `vars[username]=${name}&vars[new_password]=secret1&vars[confirm_password]=secret1` });
      userId = added.json.response;
    }
  });
  after(() => server.close());

  describe('json', () => {
    it('answers a success as application/json {"response": ...}', async () => {
      const res = await server.request('GET', `/api/users/get.json?user_id=${userId}`);
      expect(res.status).to.equal(200);
      expect(mediaType(res.contentType)).to.equal('application/json');
      expect(res.json.response).to.include({ id: userId, username: 'grace' });
    });

    it('answers an error as application/json with message and errors', async () => {
      const res = await server.request('GET', '/api/users/get.json?user_id=abc');
      expect(res.status).to.equal(400);
      expect(mediaType(res.contentType)).to.equal('application/json');
      expect(res.json.errors.user_id).to.have.property('format');
    });
  });

  it('tells browsers not to guess another type from any answer, whatever its format or status', async () => {
    for (const path of [`/api/users/get.json?user_id=${userId}`, '/api/users/get.xml?user_id=abc', `/api/users/get.php?user_id=${userId}`, '/api/nope/none.json']) {
      const res = await server.request('GET', path);
      expect(res.headers.get('x-content-type-options'), path).to.equal('nosniff');
    }
    expect((await server.request('GET', '/api/users/get.json', { auth: false })).headers.get('x-content-type-options')).to.equal('nosniff');
  });

  describe('xml', () => {
    it('answers a record under the model name, parsed by a real XML parser', async () => {
      const res = await server.request('GET', `/api/users/get.xml?user_id=${userId}`);
      expect(res.status).to.equal(200);
      expect(mediaType(res.contentType)).to.equal('application/xml');
      expect(res.text.startsWith(XML_PROLOG)).to.equal(true);
      const record = parseXml(res.text).users.response;
      expect(record).to.include({ id: String(userId), username: 'grace' });
      expect(record).not.to.have.property('password');
    });

    it('repeats <response> for a list response', async () => {
      const res = await server.request('GET', '/api/users/getList.xml');
      const responses = parseXml(res.text).users.response;
      expect(responses.map((r: { username: string }) => r.username)).to.deep.equal(['ada', 'grace']);
    });

    it('answers an error in XML too: message and errors as elements', async () => {
      const res = await server.request('GET', '/api/users/get.xml?user_id=abc');
      expect(res.status).to.equal(400);
      expect(mediaType(res.contentType)).to.equal('application/xml');
      const body = parseXml(res.text).users;
      expect(body.message).to.equal('The request cannot be fulfilled due to bad syntax.');
      expect(body.errors.user_id).to.have.property('format');
    });

    it('answers a 401 in XML when the format was readable', async () => {
      const res = await server.request('GET', '/api/users/get.xml?user_id=1', { auth: false });
      expect(res.status).to.equal(401);
      expect(parseXml(res.text).users).to.deep.equal({ message: 'The authorization details given appear to be invalid.' });
    });

    it('gives back carriage returns in text exactly, as a conforming XML parser reads them', async () => {
      // Notes typed in a browser on Windows end lines with CR LF. A conforming parser (libxml2,
      // expat) turns a literal CR LF or lone CR into LF before reading (XML 1.0, 2.11); xmlbuilder2
      // does not, so the spec does that step first.
      const endOfLines = (text: string) => text.replace(/\r\n?/g, '\n');
      const address = 'Suite 2\r\nLevel 3\rBack\nDoor';
      const added = await server.request('POST', '/api/clients/add.json', { body: { vars: { first_name: 'Ada', last_name: 'Byron', email: 'ada@example.com', address1: address } } });
      expect(added.status, added.text).to.equal(200);
      const res = await server.request('GET', `/api/clients/get.xml?client_id=${added.json.response}&get_settings=false`);
      expect(res.status).to.equal(200);
      expect(parseXml(endOfLines(res.text)).clients.response.address1).to.equal(address);
    });
  });

  describe('php', () => {
    before(function () {
      if (!phpAvailable) this.skip();
    });

    it('answers a record PHP reads back as an array envelope holding a stdClass', async () => {
      const res = await server.request('GET', `/api/users/get.php?user_id=${userId}`);
      expect(res.status).to.equal(200);
      expect(res.contentType).to.equal('text/plain; charset=UTF-8');
      const read = phpUnserialize(res.text);
      expect(read.type).to.equal('array');
      expect(read.response_class).to.equal('stdClass');
      const asJson = await server.request('GET', `/api/users/get.json?user_id=${userId}`);
      expect(read.value).to.deep.equal(asJson.json);
    });

    it('answers lists and scalars PHP reads back unchanged', async () => {
      for (const path of ['/api/users/getList', '/api/users/getListCount', '/api/users/get']) {
        const query = path.endsWith('/get') ? '?user_id=999999' : '';
        const php = phpUnserialize((await server.request('GET', `${path}.php${query}`)).text);
        expect(php.value, path).to.deep.equal((await server.request('GET', `${path}.json${query}`)).json);
      }
    });

    it('answers an error PHP reads back with message and errors', async () => {
      const res = await server.request('POST', '/api/users/add.php', { body: 'vars[username]=&vars[new_password]=abc&vars[confirm_password]=abc' });
      expect(res.status).to.equal(400);
      expect(res.contentType).to.equal('text/plain; charset=UTF-8');
      expect(phpUnserialize(res.text).value).to.deep.equal({
        message: 'The request cannot be fulfilled due to bad syntax.',
        errors: { username: { empty: 'Please enter a username.' }, new_password: { format: 'Please enter a password at least 6 characters in length.' } },
      });
    });

    it('answers what the reference returns as a PHP array as an array: errors, label maps, setting maps', async () => {
      const error = (await server.request('POST', '/api/users/add.php', { body: 'vars[username]=' })).text;
      expect(phpAccess(error, "['errors']['username']['empty']")).to.equal('Please enter a username.');
      const statuses = (await server.request('GET', '/api/clients/getStatusTypes.php')).text;
      expect(phpAccess(statuses, "['response']['fraud']")).to.equal('Fraud');
      const settings = (await server.request('GET', '/api/settings/getList.php')).text;
      expect(phpAccess(settings, "['response']['timezone']")).to.equal('UTC');
      // A client is a record (stdClass) whose settings are a map (an array); a list of records stays a list of stdClass.
      const client = await server.request('POST', '/api/clients/create.json', {
        body: 'vars[username]=php.map&vars[new_password]=secret1&vars[confirm_password]=secret1&vars[first_name]=Ada&vars[last_name]=L&vars[email]=ada@example.com',
      });
      expect(client.status, client.text).to.equal(200);
      const got = (await server.request('GET', `/api/clients/get.php?client_id=${client.json.response.id}`)).text;
      expect(phpAccess(got, "['response']->settings['timezone']")).to.equal('UTC');
      const records = (await server.request('GET', '/api/companies/getSettings.php?company_id=1')).text;
      expect(phpAccess(records, "['response'][0]->key")).to.equal('timezone');
    });

    it('counts string lengths in bytes, so PHP reads non-ASCII text back', async () => {
      const res = await server.request('POST', '/api/encryption/systemEncrypt.php', { body: 'value=' + encodeURIComponent('zürich ✓') });
      const cipher = phpUnserialize(res.text).value as { response: string };
      const back = await server.request('POST', '/api/encryption/systemDecrypt.php', { body: 'value=' + encodeURIComponent(cipher.response) });
      expect(phpUnserialize(back.text).value).to.deep.equal({ response: 'zürich ✓' });
    });
  });

  describe('the format token and the path prefix', () => {
    for (const token of ['JSON', 'Json', 'XML', 'Xml', 'PHP', 'pHp']) {
      it(`reads .${token} case-insensitively`, async () => {
        const res = await server.request('GET', `/api/users/getListCount.${token}`);
        expect(res.status).to.equal(200);
        const expected = { json: 'application/json', xml: 'application/xml', php: 'text/plain' }[token.toLowerCase()];
        expect(mediaType(res.contentType)).to.equal(expected);
      });
    }

    it('serves /index.php/api/ the same as /api/, in every format', async () => {
      for (const format of ['json', 'xml', 'php']) {
        const plain = await server.request('GET', `/api/users/get.${format}?user_id=${userId}`);
        const prefixed = await server.request('GET', `/index.php/api/users/get.${format}?user_id=${userId}`);
        expect(prefixed.status).to.equal(200);
        expect(prefixed.contentType).to.equal(plain.contentType);
        expect(prefixed.text).to.equal(plain.text);
      }
    });

    it('answers errors under /index.php/api/ the same way', async () => {
      const res = await server.request('GET', '/index.php/api/users/get.yaml', { auth: false });
      expect(res.status).to.equal(415);
      expect(res.json).to.deep.equal({ message: 'The format requested is not supported by the server.' });
    });
  });
});
