import { expect } from 'chai';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { SYSTEM_COMPANY } from '../../core/settings-catalogue';
import { SdkError, TallyClient } from '../../sdk/src';
import { ECHO } from './support/echo-model';
import { useSdkServer } from './support/sdk-server';

describe('sdk: errors', () => {
  const sdk = useSdkServer();

  describe('answers with an error status are results, never exceptions', () => {
    it('400: errors() is the field errors map', async () => {
      const res = await sdk.client.post('users', 'add', { vars: { username: '', new_password: 'abc', confirm_password: 'abd' } });
      expect(res.status()).to.equal(400);
      expect(res.response()).to.equal(null);
      expect(res.message()).to.equal('The request cannot be fulfilled due to bad syntax.');
      expect(res.errors()).to.deep.equal({
        username: { empty: 'Please enter a username.' },
        new_password: { format: 'Please enter a password at least 6 characters in length.', matches: 'The passwords do not match.' },
      });
    });

    it('400: flat fields instead of vars[...] are named, with a hint', async () => {
      const res = await sdk.client.post('users', 'add', { username: 'ada' });
      expect(res.status()).to.equal(400);
      expect((res.errors() as Record<string, Record<string, string>>).username.unknown).to.contain('Did you mean vars[username]?');
    });

    const whole = (status: number, message: string) => ({ status, body: { message } });
    const cases: Array<[string, () => Promise<import('../../sdk/src').TallyResult>, { status: number; body: object }]> = [
      ['403 for a member that is not callable', () => sdk.client.get(ECHO, 'hidden'), whole(403, 'The requested resource is not accessible.')],
      ['404 for a model that does not exist', () => sdk.client.get('nothing_here', 'get'), whole(404, 'The requested resource does not exist.')],
      ['404 for a method that does not exist', () => sdk.client.get('users', 'nothingHere'), whole(404, 'The requested resource does not exist.')],
      ['415 for a format the server does not serve', () => sdk.client.get('users', 'getListCount', {}, { format: 'yaml' }), whole(415, 'The format requested is not supported by the server.')],
      ['500 for an unexpected failure', () => sdk.client.post(ECHO, 'crash'), whole(500, 'An unexpected error occured.')],
    ];
    for (const [title, call, expected] of cases) {
      it(`${title}: errors() is the whole body`, async () => {
        const res = await call();
        expect(res.status()).to.equal(expected.status);
        expect(res.response()).to.equal(null);
        expect(res.errors()).to.deep.equal(expected.body);
      });
    }

    it('500 when a default cannot be retrieved: the whole body, with its response text', async () => {
      const res = await sdk.client.post(ECHO, 'needsDefault');
      expect(res.status()).to.equal(500);
      expect(res.errors()).to.deep.equal({ message: 'An unexpected error occured.', response: 'Internal error: Failed to retrieve the default value' });
      expect((await sdk.client.post(ECHO, 'needsDefault', { x: 'given' })).response()).to.equal('given');
    });

    it('413 for a body over the limit', async () => {
      const res = await sdk.client.post(ECHO, 'echo', { vars: { big: 'x'.repeat(9 * 1024 * 1024) } });
      expect(res.status()).to.equal(413);
      expect(res.errors()).to.deep.equal({ message: 'The request is too large.' });
    });

    describe('503 in maintenance mode', () => {
      before(() => sdk.server.installation.settings.set(SYSTEM_COMPANY, 'maintenance_mode', 'true'));
      after(() => sdk.server.installation.settings.set(SYSTEM_COMPANY, 'maintenance_mode', 'false'));

      it('answers 503 with the maintenance message', async () => {
        const res = await sdk.client.get('users', 'getListCount');
        expect(res.status()).to.equal(503);
        expect(res.errors()).to.deep.equal({ message: 'The requested resource is currently unavailable due to maintenance.' });
      });
    });
  });

  it('a redirect is answered as its 3xx result and not followed, so the key is never resent elsewhere', async () => {
    let reachedTarget = false;
    const target = http.createServer((_req, res) => {
      reachedTarget = true;
      res.end('{"response":"followed"}');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const redirector = http.createServer((_req, res) => {
      res.writeHead(307, { location: `http://127.0.0.1:${(target.address() as AddressInfo).port}/api/users/add.json` });
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      const viaRedirect = new TallyClient({ url: `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`, ...sdk.server.credential });
      const res = await viaRedirect.post('users', 'add', { vars: { username: 'x' } });
      expect(res.status()).to.equal(307);
      expect(res.response()).to.equal(null);
      expect(reachedTarget).to.equal(false);
    } finally {
      for (const s of [target, redirector]) {
        s.closeAllConnections();
        await new Promise((resolve) => s.close(resolve));
      }
    }
  });

  describe('no answer: an SdkError', () => {
    it('unreachable: nothing listens on the port', async () => {
      const port = await freePort();
      const offline = new TallyClient({ url: `http://127.0.0.1:${port}`, ...sdk.server.credential });
      const error = await rejection(offline.get('users', 'getListCount'));
      expect(error.code).to.equal('unreachable');
      expect(error.message).to.contain(`http://127.0.0.1:${port}/api/users/getListCount.json`).and.to.contain('ECONNREFUSED');
      expect(error.message).not.to.contain(sdk.server.credential.key);
    });

    it('timeout: the server does not answer in time', async () => {
      const res = await rejection(sdk.client.post(ECHO, 'slow', { wait_ms: 600 }, { timeoutMs: 100 }));
      expect(res.code).to.equal('timeout');
      expect(res.message).to.contain('did not answer within 100 ms');
    });

    it("aborted: the caller's signal stops the call", async () => {
      const controller = new AbortController();
      const pending = sdk.client.post(ECHO, 'slow', { wait_ms: 600 }, { signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      expect((await rejection(pending)).code).to.equal('aborted');
    });

    it('bad_response: a success that is not JSON (a proxy page, say)', async () => {
      const proxy = http.createServer((_req, res) => res.end('<html>Welcome to nginx</html>'));
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      try {
        const viaProxy = new TallyClient({ url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, ...sdk.server.credential });
        const error = await rejection(viaProxy.get('users', 'getListCount'));
        expect(error.code).to.equal('bad_response');
        expect(error.message).to.contain('Welcome to nginx');
      } finally {
        proxy.closeAllConnections();
        await new Promise((resolve) => proxy.close(resolve));
      }
    });

    it("usage: a key with a line break or a control character inside is refused without quoting it (fetch's own error quoted the whole key)", async () => {
      for (const key of [`${sdk.server.credential.key}\r\nX-Injected: 1`, `tly_secret\u0000rest`, `tly_secret\nrest`]) {
        for (const auth of ['header', 'basic'] as const) {
          let error: unknown;
          try {
            await new TallyClient({ url: sdk.server.url, user: sdk.server.credential.user, key, auth }).get('users', 'getListCount');
          } catch (e) {
            error = e;
          }
          expect(error, auth).to.be.instanceOf(SdkError);
          expect((error as SdkError).code).to.equal('usage');
          const told = JSON.stringify({ message: (error as SdkError).message, cause: String((error as SdkError).cause ?? '') });
          expect(told).not.to.contain('secret').and.not.to.contain(sdk.server.credential.key);
        }
      }
      // Whitespace around the key, as a file read whole gives it, still works (fetch trims it).
      const trailing = new TallyClient({ url: sdk.server.url, user: sdk.server.credential.user, key: `${sdk.server.credential.key}\n` });
      expect((await trailing.get('users', 'getListCount')).status()).to.equal(200);
    });

    it('usage: a malformed call is refused before anything is sent', async () => {
      expect(() => new TallyClient({ url: 'not a url', ...sdk.server.credential })).to.throw(SdkError, /not a URL/);
      expect(() => new TallyClient({ url: 'ftp://example.com', ...sdk.server.credential })).to.throw(SdkError, /http or https/);
      expect(() => new TallyClient({ url: `http://u:p@127.0.0.1`, ...sdk.server.credential })).to.throw(SdkError, /not inside the url/);
      expect(() => new TallyClient({ url: sdk.server.url, ...sdk.server.credential, auth: 'digest' as 'basic' })).to.throw(SdkError, /header.*basic/);
      expect(() => new TallyClient({ url: sdk.server.url, ...sdk.server.credential, timeoutMs: 0 })).to.throw(SdkError, /timeoutMs/);
      expect((await rejection(sdk.client.get('', 'get'))).code).to.equal('usage');
      expect((await rejection(sdk.client.get('users/x', 'get'))).code).to.equal('usage');
      expect((await rejection(sdk.client.get('users', 'get', {}, { format: 'js on' }))).code).to.equal('usage');
      expect((await rejection(sdk.client.request('PATCH' as 'GET', 'users', 'get'))).code).to.equal('usage');
      expect((await rejection(sdk.client.get('users', 'get', { at: new Date(NaN) }))).code).to.equal('usage');
    });
  });
});

async function rejection(promise: Promise<unknown>): Promise<SdkError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(SdkError);
    return error as SdkError;
  }
  throw new Error('expected the call to reject');
}

/** A port nothing listens on: bound by the OS, then released. */
async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
