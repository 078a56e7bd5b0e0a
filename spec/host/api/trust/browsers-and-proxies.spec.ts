import { expect } from 'chai';
import { startTestServer, TestServer } from '../../../support/test-server';
import { call } from '../billing/fixtures';
import { rawRequest } from '../../../support/raw-http';

describe('browsers: cross-site requests, Request-Id, no-store', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ trust: { allowedOrigins: ['https://app.example.com'] } });
  });
  after(() => server.close());

  // node:http, as fetch will not send Origin or Sec-Fetch-Site as given.
  const basic = () => `Basic ${Buffer.from(`${server.credential.user}:${server.credential.key}`).toString('base64')}`;
  const asBrowser = (headers: Record<string, string>, verb = 'POST') =>
    rawRequest(server.url, {
      method: verb,
      path: verb === 'POST' ? '/api/users/add.json' : '/api/users/getListCount.json',
      body: verb === 'POST' ? 'vars[username]=csrf-victim&vars[new_password]=secret1&vars[confirm_password]=secret1' : undefined,
      headers: { authorization: basic(), 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  const fromOrigin = (method: string, headers: Record<string, string>) => rawRequest(server.url, { method, path: '/api/users/getListCount.json', auth: server.credential, headers });

  it('refuses a form another site posts with remembered Basic credentials, whatever the credentials', async () => {
    for (const headers of [{ origin: 'https://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
      const res = await asBrowser(headers);
      expect(res.status, JSON.stringify(headers)).to.equal(403);
      expect(res.json).to.deep.equal({ message: 'The requested resource is not accessible.' });
    }
    expect((await asBrowser({ 'sec-fetch-site': 'cross-site' }, 'GET')).status).to.equal(403);
    expect((await call(server, 'GET', 'users/getList')).text).not.to.contain('csrf-victim');
  });

  it('answers the same site, programs (no Origin) and a configured origin, which gets CORS headers', async () => {
    expect((await asBrowser({ origin: server.url.replace('localhost', '127.0.0.1'), 'sec-fetch-site': 'same-origin' })).status).to.equal(200);
    const allowed = await fromOrigin('GET', { origin: 'https://app.example.com', 'sec-fetch-site': 'cross-site' });
    expect(allowed.status).to.equal(200);
    expect(allowed.headers['access-control-allow-origin']).to.equal('https://app.example.com');
    const preflight = await rawRequest(server.url, { method: 'OPTIONS', path: '/api/users/getListCount.json', headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET' } });
    expect(preflight.status).to.equal(204);
    expect(preflight.headers['access-control-allow-headers']).to.contain('SERVICE-API-KEY');
    const foreign = await fromOrigin('GET', { origin: 'https://evil.example' });
    expect(foreign.status).to.equal(403);
    expect(foreign.headers['access-control-allow-origin']).to.equal(undefined);
  });

  it('every answer carries a Request-Id (a sane client X-Request-Id is kept) and Cache-Control: no-store', async () => {
    const created = await call(server, 'POST', 'api_keys/add');
    expect(created.headers.get('cache-control')).to.equal('no-store');
    expect(created.headers.get('request-id')).to.match(/^[0-9a-f-]{36}$/);
    for (const res of [await server.request('GET', '/api/users/getListCount.json', { auth: false }), await server.request('GET', '/api/nope')]) {
      expect(res.headers.get('request-id')).to.match(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('cache-control')).to.equal('no-store');
    }
    const kept = await server.request('GET', '/api/users/getListCount.json', { headers: { 'X-Request-Id': 'client-42.a' } });
    expect(kept.headers.get('request-id')).to.equal('client-42.a');
    const replaced = await server.request('GET', '/api/users/getListCount.json', { headers: { 'X-Request-Id': 'bad id\twith tabs <script>' } });
    expect(replaced.headers.get('request-id')).to.match(/^[0-9a-f-]{36}$/);
  });
});

describe('proxies: the client address is the rightmost hop not added by a trusted proxy', () => {
  const servers: TestServer[] = [];
  after(async () => {
    for (const s of servers) await s.close();
  });

  const start = async (proxyHops: number) => {
    const server = await startTestServer({ trustProxy: true, proxyHops });
    servers.push(server);
    const allowed = await call(server, 'POST', 'api_keys/add', { vars: { allow_ips: '203.0.113.7' } });
    return { server, only: { user: allowed.json.response.user as string, key: allowed.json.response.key as string } };
  };

  it('one proxy: a client-written leftmost entry proves nothing', async () => {
    const { server, only } = await start(1);
    const as = (xff: string) => server.request('GET', '/api/users/getListCount.json', { auth: only, headers: { 'X-Forwarded-For': xff } });
    expect((await as('203.0.113.7')).status).to.equal(200);
    expect((await as('203.0.113.7, 198.51.100.9')).status).to.equal(403);
    expect((await as('198.51.100.9, 203.0.113.7')).status).to.equal(200);
  });

  it('two proxies: the second entry from the right', async () => {
    const { server, only } = await start(2);
    const as = (xff: string) => server.request('GET', '/api/users/getListCount.json', { auth: only, headers: { 'X-Forwarded-For': xff } });
    expect((await as('203.0.113.7, 10.0.0.2')).status).to.equal(200);
    expect((await as('10.9.9.9, 203.0.113.7, 10.0.0.2')).status).to.equal(200);
    expect((await as('203.0.113.7, 10.9.9.9, 10.0.0.2')).status).to.equal(403);
  });

  it('lock-outs count the real client, so forged entries do not dodge them', async () => {
    const server = await startTestServer({ trustProxy: true, trust: { lockoutAttempts: 100, addressAttempts: 3 } });
    servers.push(server);
    for (let i = 0; i < 3; i++) {
      const res = await server.request('GET', '/api/users/getListCount.json', { auth: { user: `tly_x${i}`, key: 'k' }, headers: { 'X-Forwarded-For': `192.0.2.${i}, 198.51.100.20` } });
      expect(res.status).to.equal(401);
    }
    const locked = await server.request('GET', '/api/users/getListCount.json', { headers: { 'X-Forwarded-For': '192.0.2.99, 198.51.100.20' } });
    expect(locked.status).to.equal(429);
    expect((await server.request('GET', '/api/users/getListCount.json', { headers: { 'X-Forwarded-For': '198.51.100.21' } })).status).to.equal(200);
  });
});
