import { expect } from 'chai';
import { AdminDb, adminDb } from '../../../host/admin/admin-tables';
import { DEFAULT_LOCKOUT } from '../../../host/web/sign-in-lockout';
import { TestServer } from '../../support/test-server';
import { AdminClient, addStaff, STAFF, startProxiedServerWithStaff } from './support/admin-client';

/** Moves every recorded failure back in time, as if `minutes` had passed. */
async function age(db: AdminDb, minutes: number): Promise<void> {
  const rows = await db.selectFrom('admin_sign_in_failures').select(['id', 'failed_at']).execute();
  for (const row of rows) {
    const earlier = new Date(Date.parse(`${row.failed_at.replace(' ', 'T')}Z`) - minutes * 60_000);
    await db
      .updateTable('admin_sign_in_failures')
      .set({ failed_at: earlier.toISOString().slice(0, 19).replace('T', ' ') })
      .where('id', '=', row.id)
      .execute();
  }
}

async function attempt(server: TestServer, username: string, password: string, address?: string, client = new AdminClient(server.url)) {
  await client.get('/admin/sign-in', address ? { 'x-forwarded-for': address } : {});
  return client.post('/admin/sign-in', { username, password }, address ? { 'x-forwarded-for': address } : {});
}

describe('admin sign-in lock-out over HTTP', () => {
  let server: TestServer;
  let db: AdminDb;
  // Behind a trusted proxy, so a test can send attempts from several addresses (X-Forwarded-For);
  // without the header the address is the socket's, as without a proxy.
  beforeEach(async () => {
    server = await startProxiedServerWithStaff();
    db = adminDb(server.installation.db);
  });
  afterEach(() => server.close());

  it(`locks a username for 15 minutes after ${DEFAULT_LOCKOUT.perUsername} failures, even with the right password`, async () => {
    for (let i = 0; i < DEFAULT_LOCKOUT.perUsername; i++) expect((await attempt(server, STAFF.username, `wrong ${i}`)).status).to.equal(403);
    const locked = await attempt(server, STAFF.username, STAFF.password);
    expect(locked.status).to.equal(429);
    expect(locked.text).to.contain('Too many failed sign-ins. Try again in 15 minutes.');
    expect(Number(locked.headers.get('retry-after'))).to.be.within(14 * 60, 15 * 60 + 2);
    // Case variants of the name are the same subject.
    expect((await attempt(server, STAFF.username.toUpperCase(), STAFF.password)).status).to.equal(429);
    await age(db, 16);
    expect((await attempt(server, STAFF.username, STAFF.password)).status).to.equal(303);
  });

  it('keeps the lock while attempts continue, without counting them (no endless extension)', async () => {
    for (let i = 0; i < DEFAULT_LOCKOUT.perUsername; i++) await attempt(server, STAFF.username, 'wrong');
    await age(db, 10);
    expect((await attempt(server, STAFF.username, 'wrong again')).status).to.equal(429);
    await age(db, 6);
    expect((await attempt(server, STAFF.username, STAFF.password)).status).to.equal(303);
  });

  it("does not lock other usernames, and a success clears the username's count", async () => {
    await addStaff(server.installation, 'robin', 'robin password');
    for (let i = 0; i < DEFAULT_LOCKOUT.perUsername; i++) await attempt(server, STAFF.username, 'wrong');
    expect((await attempt(server, 'robin', 'robin password')).status).to.equal(303);
    for (let i = 0; i < DEFAULT_LOCKOUT.perUsername - 1; i++) await attempt(server, 'robin', 'wrong');
    expect((await attempt(server, 'robin', 'robin password')).status).to.equal(303);
    for (let i = 0; i < DEFAULT_LOCKOUT.perUsername - 1; i++) await attempt(server, 'robin', 'wrong');
    expect((await attempt(server, 'robin', 'robin password')).status, 'count restarted after the success').to.equal(303);
  });

  it(`locks an address after ${DEFAULT_LOCKOUT.perAddress} failures across usernames`, async () => {
    for (let i = 0; i < DEFAULT_LOCKOUT.perAddress; i++) expect((await attempt(server, `guess-${i}`, 'wrong')).status).to.equal(403);
    const locked = await attempt(server, STAFF.username, STAFF.password);
    expect(locked.status).to.equal(429);
    await age(db, 16);
    expect((await attempt(server, STAFF.username, STAFF.password)).status).to.equal(303);
  });

  it('keeps the lock-out in the database, where every host process counts it', async () => {
    for (let i = 0; i < DEFAULT_LOCKOUT.perUsername; i++) await attempt(server, STAFF.username, 'wrong');
    const rows = await db.selectFrom('admin_sign_in_failures').select('subject').execute();
    expect(rows.filter((r) => r.subject === `user:${STAFF.username}`)).to.have.length(DEFAULT_LOCKOUT.perUsername);
  });

  describe('per source: failures from one place never lock the owner out elsewhere', () => {
    it(`locks a username after ${DEFAULT_LOCKOUT.perUsername} failures only at the address they came from`, async () => {
      for (let i = 0; i < DEFAULT_LOCKOUT.perUsername; i++) expect((await attempt(server, STAFF.username, `wrong ${i}`, '203.0.113.7')).status).to.equal(403);
      expect((await attempt(server, STAFF.username, STAFF.password, '203.0.113.7')).status).to.equal(429);
      expect((await attempt(server, STAFF.username, STAFF.password, '198.51.100.2')).status, 'the owner, elsewhere').to.equal(303);
      // The owner's success elsewhere does not lift the lock where the guesses came from.
      expect((await attempt(server, STAFF.username, STAFF.password, '203.0.113.7')).status).to.equal(429);
    });

    it('counts an IPv6 /64 as one source, for the username and for the address', async () => {
      for (let i = 1; i <= DEFAULT_LOCKOUT.perUsername; i++) await attempt(server, STAFF.username, 'wrong', `2001:db8:0:1::${i}`);
      expect((await attempt(server, STAFF.username, STAFF.password, '2001:db8:0:1:ffff::99')).status, 'same /64').to.equal(429);
      expect((await attempt(server, STAFF.username, STAFF.password, '2001:db8:0:2::1')).status, 'another /64').to.equal(303);
      for (let i = 1; i <= DEFAULT_LOCKOUT.perAddress; i++) await attempt(server, `guess-${i}`, 'wrong', `2001:db8:0:3::${i.toString(16)}`);
      await addStaff(server.installation, 'robin', 'robin password');
      expect((await attempt(server, 'robin', 'robin password', '2001:db8:0:3:1:2:3:4')).status, 'the /64 is locked').to.equal(429);
      expect((await attempt(server, 'robin', 'robin password', '2001:db8:0:4::1')).status).to.equal(303);
    });

    it(`locks the username for browsers that never signed in as it after ${DEFAULT_LOCKOUT.perUsernameAnywhere} failures from anywhere, not for its owner's browser`, async () => {
      const owner = new AdminClient(server.url);
      expect((await attempt(server, STAFF.username, STAFF.password, '192.0.2.1', owner)).status).to.equal(303);
      await addStaff(server.installation, 'robin', 'robin password');
      const colleague = new AdminClient(server.url);
      expect((await attempt(server, 'robin', 'robin password', '192.0.2.2', colleague)).status).to.equal(303);
      for (let i = 0; i < DEFAULT_LOCKOUT.perUsernameAnywhere; i++) {
        expect((await attempt(server, STAFF.username, `guess ${i}`, `198.18.${i >> 2}.${i}`)).status).to.equal(403);
      }
      const stranger = await attempt(server, STAFF.username, STAFF.password, '198.51.100.9');
      expect(stranger.status, 'a new browser at a new address').to.equal(429);
      expect(stranger.text).to.contain('Too many failed sign-ins. Try again in 15 minutes.');
      owner.cookies.delete('tally_admin'); // the session ended long ago; the browser keeps its known-device cookie
      expect((await attempt(server, STAFF.username, STAFF.password, '198.51.100.10', owner)).status, "the owner's browser, anywhere").to.equal(303);
      colleague.cookies.delete('tally_admin');
      expect((await attempt(server, STAFF.username, STAFF.password, '198.51.100.11', colleague)).status, "another username's cookie").to.equal(429);
      const forged = new AdminClient(server.url);
      forged.cookies.set('tally_admin_device', `${Math.floor(Date.now() / 86_400_000)}.${'0'.repeat(64)}`);
      expect((await attempt(server, STAFF.username, STAFF.password, '198.51.100.12', forged)).status, 'a forged cookie').to.equal(429);
      await age(db, 16);
      expect((await attempt(server, STAFF.username, STAFF.password, '198.51.100.9')).status).to.equal(303);
    });

    it('keeps the known-device cookie HttpOnly, SameSite=Strict and sent to the sign-in page only', async () => {
      const res = await attempt(server, STAFF.username, STAFF.password, '192.0.2.1');
      const cookie = res.setCookies.find((line) => line.startsWith('tally_admin_device='))!;
      expect(cookie)
        .to.match(/path=\/admin\/sign-in/i)
        .and.match(/httponly/i)
        .and.match(/samesite=strict/i);
      const expires = Date.parse(/expires=([^;]+)/i.exec(cookie)![1]);
      expect(expires - Date.now()).to.be.within(89 * 86_400_000, 90 * 86_400_000);
    });
  });
});

describe('admin sign-in lock-out per address behind a trusted proxy', () => {
  let server: TestServer;
  before(async () => {
    server = await startProxiedServerWithStaff();
  });
  after(() => server.close());

  it('counts the client address the proxy names, so one client does not lock out another', async () => {
    for (let i = 0; i < DEFAULT_LOCKOUT.perAddress; i++) await attempt(server, `guess-${i}`, 'wrong', '203.0.113.7');
    expect((await attempt(server, STAFF.username, STAFF.password, '203.0.113.7')).status).to.equal(429);
    expect((await attempt(server, STAFF.username, STAFF.password, '198.51.100.2')).status).to.equal(303);
  });
});
