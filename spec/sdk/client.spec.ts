import { expect } from 'chai';
import { TallyClient } from '../../sdk/src';
import { phpAvailable, phpUnserialize } from '../support/php';
import { ECHO } from './support/echo-model';
import { useSdkServer } from './support/sdk-server';

describe('sdk: calls against a real server', () => {
  const sdk = useSdkServer();

  describe('every verb, parameters where the server reads them', () => {
    it('POST: creates a user from a form body, GET: reads it from the query', async () => {
      const added = await sdk.client.post<number>('users', 'add', { vars: { username: 'ada', new_password: 'secret1', confirm_password: 'secret1' } });
      expect(added.status()).to.equal(200);
      expect(added.errors()).to.equal(false);
      expect(added.response()).to.be.a('number');
      const got = await sdk.client.get<{ id: number; username: string }>('users', 'get', { user_id: added.response()! });
      expect(got.response()).to.include({ id: added.response(), username: 'ada' });
    });

    it('PUT: edits from a form body, DELETE: deletes from the query', async () => {
      const id = (await sdk.client.post<number>('users', 'add', { vars: { username: 'ken', new_password: 'secret1', confirm_password: 'secret1' } })).response();
      const edited = await sdk.client.put<{ username: string }>('users', 'edit', { user_id: id!, vars: { username: 'kenneth' } });
      expect(edited.status()).to.equal(200);
      expect(edited.response()!.username).to.equal('kenneth');
      const deleted = await sdk.client.delete('users', 'delete', { user_id: id! });
      expect(deleted.status()).to.equal(200);
      expect((await sdk.client.get('users', 'get', { user_id: id! })).response()).to.equal(false);
    });

    it('GET binds every parameter kind from the query string', async () => {
      const res = await sdk.client.get('sdk_echo', 'kinds', { number: 42, text: 'a b&c=d', flag: true, items: ['x', 'y'], extra: { deep: [1, 2] } });
      expect(res.errors()).to.equal(false);
      expect(res.response()).to.deep.equal({ number: 42, text: 'a b&c=d', flag: true, items: ['x', 'y'], extra: { deep: ['1', '2'] } });
    });

    it('sends GET and DELETE parameters in the query and POST and PUT parameters in the body', async () => {
      // The server refuses a GET or DELETE body and passes POST/PUT only their body: echo proves the placement.
      for (const verb of ['POST', 'PUT'] as const) {
        const res = await sdk.client.request(verb, ECHO, 'echo', { vars: { verb } });
        expect(res.response(), verb).to.deep.equal({ verb });
      }
      for (const verb of ['GET', 'DELETE'] as const) {
        const res = await sdk.client.request(verb, ECHO, 'echo', { vars: { verb } });
        expect(res.response(), verb).to.deep.equal({ verb });
      }
    });

    it('calls a method that takes no parameters with an empty body and no query', async () => {
      for (const verb of ['GET', 'POST', 'PUT', 'DELETE'] as const) {
        const res = await sdk.client.request<number>(verb, 'users', 'getListCount');
        expect(res.status(), verb).to.equal(200);
        expect(res.response(), verb).to.be.a('number');
      }
    });
  });

  describe('both auth modes', () => {
    it('header auth (the default) and HTTP Basic both call successfully', async () => {
      const basic = new TallyClient({ url: sdk.server.url, ...sdk.server.credential, auth: 'basic' });
      expect((await sdk.client.get('users', 'getListCount')).status()).to.equal(200);
      expect((await basic.get('users', 'getListCount')).status()).to.equal(200);
    });

    for (const auth of ['header', 'basic'] as const) {
      it(`a wrong key answers 401 with the contract's message (${auth})`, async () => {
        const wrong = new TallyClient({ url: sdk.server.url, user: sdk.server.credential.user, key: 'not-the-key', auth });
        const res = await wrong.get('users', 'getListCount');
        expect(res.status()).to.equal(401);
        expect(res.response()).to.equal(null);
        expect(res.errors()).to.deep.equal({ message: 'The authorization details given appear to be invalid.' });
      });
    }
  });

  describe('every format', () => {
    it('json: parsed, response() is the envelope content', async () => {
      const res = await sdk.client.post(ECHO, 'echo', { vars: { a: '1' } }, { format: 'json' });
      expect(res.format).to.equal('json');
      expect(res.contentType).to.match(/^application\/json/);
      expect(res.raw()).to.equal('{"response":{"a":"1"}}');
      expect(res.response()).to.deep.equal({ a: '1' });
    });

    it('xml: returned raw, rooted at the model name', async () => {
      const res = await sdk.client.post(ECHO, 'echo', { vars: { a: '1' } }, { format: 'xml' });
      expect(res.status()).to.equal(200);
      expect(res.contentType).to.match(/^application\/xml/);
      expect(res.response()).to.equal(res.raw());
      expect(res.raw()).to.match(/^<\?xml version="1.0" encoding="UTF-8"\?>\s*<sdkecho>\s*<response>\s*<a>1<\/a>\s*<\/response>\s*<\/sdkecho>\s*$/);
    });

    it('php: returned raw, and PHP reads it back', async function () {
      const res = await sdk.client.post(ECHO, 'echo', { vars: { a: '1' } }, { format: 'php' });
      expect(res.status()).to.equal(200);
      expect(res.contentType).to.match(/^text\/plain/);
      expect(res.raw()).to.equal('a:1:{s:8:"response";O:8:"stdClass":1:{s:1:"a";s:1:"1";}}');
      if (!phpAvailable) return this.skip();
      expect(phpUnserialize(res.raw()).value).to.deep.equal({ response: { a: '1' } });
    });

    it('a client-wide format applies to every call; a format token is case-insensitive', async () => {
      const xmlClient = new TallyClient({ url: sdk.server.url, ...sdk.server.credential, format: 'XML' });
      const res = await xmlClient.get('users', 'getListCount');
      expect(res.format).to.equal('xml');
      expect(res.raw()).to.match(/<users>\s*<response>\d+<\/response>\s*<\/users>/);
    });

    it('an error in xml is raw text too: errors() is the body', async () => {
      const res = await sdk.client.post(ECHO, 'refuse', {}, { format: 'xml' });
      expect(res.status()).to.equal(400);
      expect(res.errors()).to.be.a('string').and.to.contain('<message>The request cannot be fulfilled due to bad syntax.</message>');
    });
  });

  it('works under an installation path such as /index.php', async () => {
    const nested = new TallyClient({ url: `${sdk.server.url}/index.php/`, ...sdk.server.credential });
    expect((await nested.get('users', 'getListCount')).status()).to.equal(200);
  });
});
