import { expect } from 'chai';
import { createStaffMember } from '../../../host/admin/staff-accounts';
import { startTestServer, TestServer } from '../../support/test-server';
import { call, newCompany, ok } from './billing/fixtures';

/**
 * Methods of the reference's Users, Companies and Coupons a consumer written against it calls
 * (REFERENCE-MODELS.md §1), and the one answer every reader gives for another company's company_id.
 */
describe('reference methods of users, companies and coupons', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('users/getOtpModes answers the modes Tally offers; requiredOtpMode false for a user without one', async () => {
    expect(await ok(server, 'GET', 'users/getOtpModes')).to.deep.equal({ none: 'None' });
    const userId = await ok(server, 'POST', 'users/add', { vars: { username: 'otp-user', new_password: 'secret-password', confirm_password: 'secret-password' } });
    expect(await ok(server, 'GET', 'users/requiredOtpMode', { user: userId })).to.equal(false);
    expect(await ok(server, 'GET', 'users/requiredOtpMode', { user: 999999 })).to.equal(false);
    await server.installation.db.updateTable('users').set({ two_factor_mode: 'totp' }).where('id', '=', userId).execute();
    expect(await ok(server, 'GET', 'users/requiredOtpMode', { user: userId })).to.equal('totp');
    // Another company does not reach the user, so learns nothing of it.
    const other = await newCompany(server, 'Elsewhere');
    expect(await ok(server, 'GET', 'users/requiredOtpMode', { user: userId }, other.auth)).to.equal(false);
  });

  it('companies/getAllAvailable lists the companies an active staff member can work in', async () => {
    const userId = await createStaffMember(server.installation, { username: 'avail-boss', password: 'boss-password-1', email: 'boss@example.com', companyId: 1 });
    const staff = await server.installation.db.selectFrom('staff').select('id').where('user_id', '=', userId).executeTakeFirstOrThrow();
    const all = (await ok(server, 'GET', 'companies/getAll', {}, server.installationCredential)).map((c: { id: number }) => c.id);
    expect(all.length).to.be.greaterThan(1);
    expect((await ok(server, 'GET', 'companies/getAllAvailable', { staff_id: staff.id }, server.installationCredential)).map((c: { id: number }) => c.id)).to.deep.equal(all);
    // A company credential sees its own company only, and another company's staff not at all.
    expect((await ok(server, 'GET', 'companies/getAllAvailable', { staff_id: staff.id })).map((c: { id: number }) => c.id)).to.deep.equal([1]);
    const other = await newCompany(server, 'Staffless');
    expect(await ok(server, 'GET', 'companies/getAllAvailable', { staff_id: staff.id }, other.auth)).to.deep.equal([]);
    await server.installation.db.updateTable('staff').set({ status: 'inactive' }).where('id', '=', staff.id).execute();
    expect(await ok(server, 'GET', 'companies/getAllAvailable', { staff_id: staff.id }, server.installationCredential)).to.deep.equal([]);
    expect(await ok(server, 'GET', 'companies/getAllAvailable', { staff_id: 999999 }, server.installationCredential)).to.deep.equal([]);
  });

  it("coupons/getRecurring answers a recurring coupon's amount in a currency, within its limits when limit_recurring", async () => {
    const pkg = await ok(server, 'POST', 'packages/add', { vars: { names: [{ lang: 'en_us', name: 'Recurring' }], pricing: [{ price: '10.00', currency: 'USD' }] } });
    const coupon = (vars: Record<string, unknown>) =>
      ok(server, 'POST', 'coupons/add', { vars: { packages: [pkg], amounts: [{ currency: 'USD', amount: '15', type: 'percent' }], recurring: 1, ...vars } });
    const open = await coupon({ code: 'FOREVER', status: 'inactive', end_date: '2020-01-01 00:00:00 UTC' });
    const limited = await coupon({ code: 'LIMITED', limit_recurring: 1, start_date: '2026-01-01 00:00:00 UTC', end_date: '2026-12-31 00:00:00 UTC' });
    const once = await coupon({ code: 'ONCE', recurring: 0 });
    const recurring = (couponId: number, currency: string, date: string) => ok(server, 'GET', 'coupons/getRecurring', { coupon_id: couponId, currency, date });

    const forever = await recurring(open, 'USD', '2030-06-01 00:00:00 UTC');
    expect(forever).to.include({ id: open, code: 'FOREVER', recurring: 1, limit_recurring: 0, currency: 'USD', amount: '15.0000', type: 'percent' });
    expect(await recurring(open, 'EUR', '2030-06-01 00:00:00 UTC')).to.equal(false);
    expect(await recurring(limited, 'USD', '2026-06-01 00:00:00 UTC')).to.include({ code: 'LIMITED', amount: '15.0000' });
    expect(await recurring(limited, 'USD', '2027-06-01 00:00:00 UTC')).to.equal(false);
    expect(await recurring(limited, 'USD', '2025-06-01 00:00:00 UTC')).to.equal(false);
    expect(await recurring(once, 'USD', '2026-06-01 00:00:00 UTC')).to.equal(false);
    const other = await newCompany(server, 'Couponless');
    expect(await ok(server, 'GET', 'coupons/getRecurring', { coupon_id: open, currency: 'USD', date: '2030-06-01 00:00:00 UTC' }, other.auth)).to.equal(false);
    const bad = await call(server, 'GET', 'coupons/getRecurring', { coupon_id: open, currency: 'USD', date: 'soon' });
    expect(bad.status).to.equal(400);
    expect(bad.json.errors.date).to.have.key('format');
  });

  it("every reader given another company's company_id answers as for a company with nothing in it", async () => {
    const other = await newCompany(server, 'Nosy Ltd');
    const readers: Array<[string, Record<string, unknown>, unknown]> = [
      ['packages/getAll', {}, []],
      ['package_groups/getAll', {}, []],
      ['package_groups/getList', {}, []],
      ['package_groups/getListCount', {}, 0],
      ['package_groups/getTypeCount', {}, 0],
      ['pricings/getAll', {}, []],
      ['pricings/getList', {}, []],
      ['pricings/getListCount', {}, 0],
      ['coupons/getList', {}, []],
      ['coupons/getListCount', {}, 0],
      ['client_groups/getAll', {}, []],
      ['taxes/getAll', {}, []],
      ['currencies/getAll', {}, []],
    ];
    for (const [path, params, empty] of readers) {
      const own = await call(server, 'GET', path, { company_id: 1, ...params });
      expect(own.status, `${path} (own): ${own.text}`).to.equal(200);
      const res = await call(server, 'GET', path, { company_id: 1, ...params }, other.auth);
      expect(res.status, `${path}: ${res.text}`).to.equal(200);
      expect(res.json.response, path).to.deep.equal(empty);
    }
    // Bad input is still a 400 naming it, whichever company is named.
    const bad = await call(server, 'GET', 'packages/getAll', { company_id: 1, order: { nothing: 'ASC' } }, other.auth);
    expect(bad.status).to.equal(400);
  });
});
