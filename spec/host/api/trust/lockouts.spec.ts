import { expect } from 'chai';
import { CredentialVerifier } from '../../../../core/identity/credentials';
import { startTestServer, TestServer } from '../../../support/test-server';
import { call } from '../billing/fixtures';
import { secondCompany, secondProcess, SecondProcess } from './support';

const LIMITS = { lockoutAttempts: 3, addressAttempts: 6 };

describe('abuse limits: lock-outs shared by every process, rate limit, timing', () => {
  let server: TestServer;
  let other: SecondProcess;
  beforeEach(async () => {
    server = await startTestServer({ trust: LIMITS });
    other = await secondProcess(server, LIMITS);
  });
  afterEach(async () => {
    await other.close();
    await server.close();
  });

  const wrong = (user: string) => ({ user, key: 'not-the-key' });

  it('a wrong key, tried on one process, locks the API user out on the other too: 429 with Retry-After, even for the right key', async () => {
    const { user } = server.credential;
    for (let i = 0; i < 3; i++) expect((await server.request('GET', '/api/users/getListCount.json', { auth: wrong(user) })).status).to.equal(401);
    for (const res of [await server.request('GET', '/api/users/getListCount.json'), await other.request('GET', '/api/users/getListCount.json')]) {
      expect(res.status).to.equal(429);
      expect(Number(res.headers.get('retry-after'))).to.be.within(1, 15 * 60);
      expect(res.json).to.deep.equal({ message: 'Too many requests. Try again after the time given in Retry-After.' });
    }
    // Another credential from the same address is not locked yet (the address has more room).
    expect((await server.request('GET', '/api/users/getListCount.json', { auth: server.installationCredential })).status).to.equal(200);
  });

  it('wrong keys from one address lock the API user out there only: its application elsewhere keeps working', async () => {
    const proxied = await startTestServer({ trust: LIMITS, trustProxy: true, proxyHops: 1 });
    try {
      const from = (address: string, auth = proxied.credential) => proxied.request('GET', '/api/users/getListCount.json', { auth, headers: { 'X-Forwarded-For': address } });
      for (let i = 0; i < 3; i++) expect((await from('198.51.100.66', wrong(proxied.credential.user))).status).to.equal(401);
      expect((await from('198.51.100.66')).status).to.equal(429);
      expect((await from('203.0.113.7')).status).to.equal(200);
    } finally {
      await proxied.close();
    }
  });

  it('wrong keys from new IPv6 addresses of one /64 count as one source: the API user and then the network are locked', async () => {
    const proxied = await startTestServer({ trust: LIMITS, trustProxy: true, proxyHops: 1 });
    try {
      const from = (address: string, auth = proxied.credential) => proxied.request('GET', '/api/users/getListCount.json', { auth, headers: { 'X-Forwarded-For': address } });
      for (let i = 1; i <= 3; i++) expect((await from(`2001:db8:5:7::${i}`, wrong(proxied.credential.user))).status).to.equal(401);
      expect((await from('2001:db8:5:7::99')).status).to.equal(429);
      for (let i = 0; i < 3; i++) expect((await from(`2001:db8:5:7:${i}::1`, wrong(`tly_nobody${i}`))).status).to.equal(401);
      expect((await from('2001:db8:5:7:ffff::1', proxied.installationCredential)).status).to.equal(429);
      // Another /64 is another source.
      expect((await from('2001:db8:5:8::1')).status).to.equal(200);
    } finally {
      await proxied.close();
    }
  });

  it('failures counted on both processes add up', async () => {
    const { user } = server.credential;
    expect((await server.request('GET', '/api/users/getListCount.json', { auth: wrong(user) })).status).to.equal(401);
    expect((await other.request('GET', '/api/users/getListCount.json', { auth: wrong(user) })).status).to.equal(401);
    expect((await server.request('GET', '/api/users/getListCount.json', { auth: wrong(user) })).status).to.equal(401);
    expect((await other.request('GET', '/api/users/getListCount.json')).status).to.equal(429);
  });

  it('unknown API users count like wrong keys, and lock the address out after more failures', async () => {
    for (let i = 0; i < 6; i++) expect((await other.request('GET', '/api/users/getListCount.json', { auth: wrong(`tly_nobody${i}`) })).status).to.equal(401);
    const res = await server.request('GET', '/api/users/getListCount.json', { auth: server.installationCredential });
    expect(res.status).to.equal(429);
    expect(res.headers.get('retry-after')).to.match(/^\d+$/);
  });

  it('users/auth: attempts per username lock it out on every process, even with the right password', async () => {
    const userId = (await call(server, 'POST', 'users/add', { vars: { username: 'grace', new_password: 'right-pass', confirm_password: 'right-pass' } })).json.response;
    await call(server, 'POST', 'clients/add', { vars: { first_name: 'G', last_name: 'H', email: 'g@example.com', user_id: userId } });
    const attempt = (password: string, via: 'server' | 'other') =>
      (via === 'server' ? server : other).request('POST', '/api/users/auth.json', {
        body: new URLSearchParams({ username: 'grace', 'vars[username]': 'grace', 'vars[password]': password }).toString(),
      });
    expect((await attempt('right-pass', 'server')).json).to.deep.equal({ response: true });
    for (const via of ['server', 'other', 'server'] as const) expect((await attempt('wrong', via)).json).to.deep.equal({ response: false });
    for (const via of ['server', 'other'] as const) {
      const res = await attempt('right-pass', via);
      expect(res.status).to.equal(429);
      expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
    }
  });

  it("users/auth: another company's wrong passwords for a username do not lock its owner out", async () => {
    const userId = (await call(server, 'POST', 'users/add', { vars: { username: 'hopper', new_password: 'right-pass', confirm_password: 'right-pass' } })).json.response;
    await call(server, 'POST', 'clients/add', { vars: { first_name: 'G', last_name: 'H', email: 'h@example.com', user_id: userId } });
    const { credential: stranger } = await secondCompany(server);
    const attempt = (password: string, auth = server.credential) =>
      server.request('POST', '/api/users/auth.json', { auth, body: new URLSearchParams({ username: 'hopper', 'vars[username]': 'hopper', 'vars[password]': password }).toString() });
    // Company 2 reaches no such login: it is answered false, whatever the password, and then locked out itself.
    for (let i = 0; i < LIMITS.lockoutAttempts; i++) expect((await attempt(i ? 'wrong' : 'right-pass', stranger)).json).to.deep.equal({ response: false });
    expect((await attempt('right-pass', stranger)).status).to.equal(429);
    expect((await attempt('right-pass')).json).to.deep.equal({ response: true });
  });

  it('rate limit: calls per credential per minute over both processes; 429 with Retry-After beyond it; other credentials unaffected', async function () {
    this.timeout(30_000);
    await other.close();
    await server.close();
    server = await startTestServer({ trust: { rateLimitPerMinute: 4 } });
    other = await secondProcess(server, { rateLimitPerMinute: 4 });
    // Counting windows are whole minutes: start well inside one.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 50));
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await server.request('GET', '/api/users/getListCount.json')).status);
      statuses.push((await other.request('GET', '/api/users/getListCount.json')).status);
    }
    expect(statuses).to.deep.equal([200, 200, 200, 200, 429, 429]);
    const limited = await server.request('GET', '/api/users/getListCount.json');
    expect(limited.status).to.equal(429);
    expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
    expect((await server.request('GET', '/api/users/getListCount.json', { auth: server.installationCredential })).status).to.equal(200);
  });
});

describe('timing: an unknown API user costs what a wrong key costs', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('verify takes the same path for both (no query for either once seen), within noise', async () => {
    const verifier = new CredentialVerifier(server.installation.db, 60_000);
    const { user } = server.credential;
    const time = async (who: string) => {
      const samples: number[] = [];
      for (let i = 0; i < 3000; i++) {
        const started = process.hrtime.bigint();
        expect(await verifier.verify(who, 'wrong-key')).to.equal(null);
        samples.push(Number(process.hrtime.bigint() - started));
      }
      return samples.sort((a, b) => a - b)[samples.length >> 1];
    };
    await time(user);
    await time('tly_unknown');
    const [known, unknown] = [await time(user), await time('tly_unknown')];
    // Before the fix an unknown user cost a database query (about 100 µs) more than a wrong key.
    expect(Math.abs(known - unknown), `known ${known} ns, unknown ${unknown} ns`).to.be.below(Math.max(known, unknown) * 0.5 + 5000);
  });
});

describe('lock-out rows do not pile up', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ trust: { lockoutAttempts: 3, addressAttempts: 1000, lockoutMs: 1000 } });
  });
  after(() => server.close());

  it('rows whose window and lock have passed are cleared as new failures come in', async () => {
    for (let i = 0; i < 5; i++) await server.request('GET', '/api/users/getListCount.json', { auth: { user: `tly_spray${i}`, key: 'k' } });
    const count = async () =>
      (
        await server.installation.db
          .selectFrom('trust_lockouts' as never)
          .selectAll()
          .execute()
      ).length;
    expect(await count()).to.equal(6);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // A new process (as after a minute) sweeps on its next failure.
    const other = await secondProcess(server, { lockoutAttempts: 3, addressAttempts: 1000, lockoutMs: 1000 });
    try {
      await other.request('GET', '/api/users/getListCount.json', { auth: { user: 'tly_late', key: 'k' } });
    } finally {
      await other.close();
    }
    expect(await count()).to.equal(2);
  });
});
