import { expect } from 'chai';
import { createStaffMember } from '../../../../host/admin/staff-accounts';
import { Credential, startTestServer, TestServer } from '../../../support/test-server';
import { AdminClient } from '../../admin/support/admin-client';
import { call } from '../billing/fixtures';
import { secondCompany } from './support';

describe('staff identities: no company credential reaches them', () => {
  let server: TestServer;
  let other: Credential;
  let staffIds: number[];

  before(async () => {
    server = await startTestServer();
    const second = await secondCompany(server);
    other = second.credential;
    staffIds = [
      await createStaffMember(server.installation, { username: 'boss', password: 'boss-password-1', email: 'boss@example.com', companyId: 1 }),
      // Even a staff member of the credential's own company is out of its reach: staff sign in to the whole admin area.
      await createStaffMember(server.installation, { username: 'clerk', password: 'clerk-password-1', email: 'clerk@example.com', companyId: second.companyId }),
    ];
  });
  after(() => server.close());

  for (const who of ['company 1', 'company 2'] as const) {
    it(`${who}'s credential can neither read, change, delete, link nor test a staff identity`, async () => {
      const auth = who === 'company 1' ? server.credential : other;
      for (const userId of staffIds) {
        expect((await call(server, 'GET', 'users/get', { user_id: userId }, auth)).json.response).to.equal(false);
        const edit = await call(server, 'PUT', 'users/edit', { user_id: userId, vars: { new_password: 'taken-over-1', confirm_password: 'taken-over-1', username: 'mine' } }, auth);
        expect(edit.status).to.equal(400);
        expect(edit.json.errors.user_id).to.deep.equal({ exists: 'Invalid user ID.' });
        await call(server, 'DELETE', 'users/delete', { user_id: userId }, auth);
        const link = await call(server, 'POST', 'clients/add', { vars: { first_name: 'X', last_name: 'Y', email: 'x@example.com', user_id: userId } }, auth);
        expect(link.status).to.equal(400);
      }
      const auth1 = await call(server, 'POST', 'users/auth', { username: 'boss', vars: { username: 'boss', password: 'boss-password-1' }, type: 'staff' }, auth);
      expect(auth1.json.response).to.equal(false);
      // The look-ups by name and address answer a staff identity as one that does not exist.
      for (const [path, params, missing] of [
        ['users/getByUsername', { username: 'boss' }, { username: 'nobody-here' }],
        ['users/getByUsername', { username: 'clerk' }, { username: 'nobody-here' }],
        ['users/getByEmail', { email: 'boss@example.com' }, { email: 'nobody@example.com' }],
        ['users/getAllByEmail', { email: 'clerk@example.com' }, { email: 'nobody@example.com' }],
      ] as const) {
        const res = await call(server, 'GET', path, params, auth);
        expect({ status: res.status, body: res.json }, path).to.deep.equal({ status: 200, body: (await call(server, 'GET', path, missing, auth)).json });
        expect(res.text, path).not.to.contain('boss').and.not.to.contain('clerk');
      }
      const list = await call(server, 'GET', 'users/getList', {}, auth);
      expect(list.text).not.to.contain('boss').and.not.to.contain('clerk');
    });
  }

  it('the staff member still signs in with their own password', async () => {
    const browser = new AdminClient(server.url);
    const signedIn = await browser.signIn('boss', 'boss-password-1');
    expect(signedIn.status).to.equal(303);
    expect(signedIn.location).to.equal('/admin');
  });

  it('an installation credential may change a staff password, and that ends every session of the staff member', async () => {
    const browser = new AdminClient(server.url);
    expect((await browser.signIn('boss', 'boss-password-1')).status).to.equal(303);
    expect((await browser.get('/admin')).status).to.equal(200);
    const changed = await call(server, 'PUT', 'users/edit', { user_id: staffIds[0], vars: { new_password: 'boss-password-2', confirm_password: 'boss-password-2' } }, server.installationCredential);
    expect(changed.status).to.equal(200);
    const after = await browser.get('/admin');
    expect(after.status).to.equal(303);
    expect(after.location).to.match(/^\/admin\/sign-in/);
    expect((await new AdminClient(server.url).signIn('boss', 'boss-password-2')).status).to.equal(303);
  });

  it('users/edit with validate_pass needs the current password', async () => {
    const userId = (await call(server, 'POST', 'users/add', { vars: { username: 'pat', new_password: 'first-pass', confirm_password: 'first-pass' } })).json.response;
    const wrong = await call(server, 'PUT', 'users/edit', { user_id: userId, validate_pass: 'true', vars: { current_password: 'nope', new_password: 'second-pass', confirm_password: 'second-pass' } });
    expect(wrong.status).to.equal(400);
    expect(wrong.json.errors).to.deep.equal({ current_password: { matches: 'The current password is incorrect.' } });
    const right = await call(server, 'PUT', 'users/edit', {
      user_id: userId,
      validate_pass: 'true',
      vars: { current_password: 'first-pass', new_password: 'second-pass', confirm_password: 'second-pass' },
    });
    expect(right.status).to.equal(200);
  });
});
