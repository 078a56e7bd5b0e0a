import { expect } from 'chai';
import { ExtensionsDir, manifest } from '../extensions/fixtures';
import { startTestServer, TestServer } from '../../support/test-server';
import { AdminClient, addStaff } from './support/admin-client';
import { auditLines } from './support/audit-lines';

/**
 * A merchant gateway standing in for a processor that authorises cards: its ids are
 * `auth_<amount>_<n>`; capture answers the payment approved for the amount asked (or all that was
 * authorised), void answers it void, except for `auth_refused_*`, which the processor refuses.
 */
const SPEC_CARD = `
class Tokens {
  constructor(ctx) {
    this.ctx = ctx;
  }
  refuseExpired(vars) {
    if (vars.transaction_id.startsWith('auth_refused')) throw this.ctx.invalid({ gateway: { refused: 'The gateway "spec_card" refused: the authorisation has expired.' } });
  }
  capture(vars) {
    this.refuseExpired(vars);
    return { status: 'approved', amount: vars.amount ?? vars.transaction_id.split('_')[1], currency: vars.currency };
  }
  void(vars) {
    this.refuseExpired(vars);
    return { status: 'void', amount: vars.transaction_id.split('_')[1], currency: vars.currency };
  }
}
Tokens.callable = { capture: { params: [{ name: 'vars', kind: 'object' }] }, void: { params: [{ name: 'vars', kind: 'object' }] } };
exports.models = { tokens: Tokens };
`;

/**
 * Capture and void on the staff transaction page, over plain HTTP: a payment a merchant gateway
 * only authorised is captured (wholly or in part) or voided as gateway_payments does it; the
 * processor's refusal is shown and changes nothing. Another company's authorisation cannot be
 * reached by its id, a member without the billing area is refused with 403, and a post without
 * the form's token is refused, all changing nothing; what was done is in the audit log.
 */
describe('capture and void of an authorisation on the transaction page (admin area over HTTP)', function () {
  this.timeout(120_000);
  let dir: ExtensionsDir;
  let server: TestServer;
  let staff: AdminClient;
  let clientId: number;
  let other: number;
  let next = 0;

  const call = (companyId: number, model: string, method: string, params: Record<string, unknown> = {}) => server.installation.call(model, method, params, { companyId, user: 'spec' }) as Promise<any>;
  const transaction = (id: number, companyId = 1) => call(companyId, 'transactions', 'get', { transaction_id: id });
  /** A pending payment of `amount` the stand-in authorised for the client. */
  const authorised = (companyId: number, client: number, amount: string, refused = false): Promise<number> =>
    call(companyId, 'transactions', 'add', {
      vars: { client_id: client, amount, currency: 'USD', type: 'cc', status: 'pending', gateway: 'spec_card', transaction_id: `auth_${refused ? 'refused' : amount}_${++next}` },
    });

  before(async () => {
    dir = new ExtensionsDir().add('gateways/merchant/spec_card', manifest('Spec card', { currencies: ['USD'] }), SPEC_CARD);
    server = await startTestServer({ extensionsDir: dir.root });
    await addStaff(server.installation);
    staff = new AdminClient(server.url);
    await staff.signIn();
    other = (await call(1, 'companies', 'add', { vars: { name: 'Other Co' } })) as number;
    for (const company of [1, other]) await call(company, 'gateway_manager', 'add', { vars: { dir: 'spec_card' } });
    clientId = await call(1, 'clients', 'add', { vars: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' } });
  });
  after(async () => {
    await server?.close();
    dir?.remove();
  });

  it('offers capture and void on an authorisation only, and captures part of one: the transaction is approved for what was captured', async () => {
    const id = await authorised(1, clientId, '25.00');
    const page = await staff.get(`/admin/payments/view?transaction_id=${id}`);
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('action="/admin/payments/capture"').and.contain('action="/admin/payments/void"').and.contain('data-confirm="Void this authorisation?');
    const captured = await staff.post('/admin/payments/capture', { company_id: '1', transaction_id: String(id), amount: '20.00' });
    expect(captured.status, captured.text).to.equal(303);
    expect(await transaction(id)).to.include({ status: 'approved', amount: '20.0000' });
    const after = await staff.get(captured.location!);
    expect(after.text).to.contain('The gateway captured the payment').and.not.to.contain('action="/admin/payments/capture"');
    // Captured once, it is no authorisation any more: the model says so and nothing changes.
    const again = await staff.post('/admin/payments/capture', { company_id: '1', transaction_id: String(id) });
    expect(again.status).to.equal(400);
    expect(again.text).to.contain('Only a pending (authorised) payment can be captured; this one is approved.');
    expect(await transaction(id)).to.include({ status: 'approved', amount: '20.0000' });
  });

  it('captures all that was authorised when no amount is given, and refuses an amount that is no number', async () => {
    const id = await authorised(1, clientId, '12.00');
    const bad = await staff.post('/admin/payments/capture', { company_id: '1', transaction_id: String(id), amount: 'lots' });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('The amount must be a number greater than 0');
    expect((await transaction(id)).status).to.equal('pending');
    const captured = await staff.post('/admin/payments/capture', { company_id: '1', transaction_id: String(id), amount: '' });
    expect(captured.status, captured.text).to.equal(303);
    expect(await transaction(id)).to.include({ status: 'approved', amount: '12.0000' });
  });

  it('voids an authorisation: the transaction is void', async () => {
    const id = await authorised(1, clientId, '9.00');
    const voided = await staff.post('/admin/payments/void', { company_id: '1', transaction_id: String(id) });
    expect(voided.status, voided.text).to.equal(303);
    expect((await transaction(id)).status).to.equal('void');
    expect((await staff.get(voided.location!)).text).to.contain('The gateway released the hold on the card');
  });

  it("shows the processor's refusal of a capture or a void as the form's error, changing nothing", async () => {
    const id = await authorised(1, clientId, '30.00', true);
    await staff.get(`/admin/payments/view?transaction_id=${id}`);
    const before = await transaction(id);
    for (const [path, fields] of [
      ['/admin/payments/capture', { amount: '10.00' }],
      ['/admin/payments/void', {}],
    ] as const) {
      const refused = await staff.post(path, { company_id: '1', transaction_id: String(id), ...fields });
      expect(refused.status, path).to.equal(400);
      expect(refused.text, path)
        .to.contain('That could not be saved')
        .and.contain('The gateway &quot;spec_card&quot; refused: the authorisation has expired.')
        .and.contain('action="/admin/payments/capture"');
    }
    expect(await transaction(id)).to.deep.equal(before);
  });

  it("cannot capture or void another company's authorisation by its id", async () => {
    const theirClient = await call(other, 'clients', 'add', { vars: { first_name: 'Their', last_name: 'Client', email: 'their@example.com' } });
    const theirs = await authorised(other, theirClient, '15.00');
    expect((await staff.get(`/admin/payments/view?transaction_id=${theirs}`)).status).to.equal(404);
    await staff.get('/admin/payments');
    for (const path of ['/admin/payments/capture', '/admin/payments/void']) {
      expect((await staff.post(path, { company_id: '1', transaction_id: String(theirs) })).status, path).to.equal(404);
    }
    expect(await transaction(theirs, other)).to.include({ status: 'pending', amount: '15.0000' });
  });

  it('refuses a post without the form token, changing nothing', async () => {
    const id = await authorised(1, clientId, '8.00');
    await staff.get(`/admin/payments/view?transaction_id=${id}`);
    for (const path of ['/admin/payments/capture', '/admin/payments/void']) {
      expect((await staff.post(path, { _csrf: null, company_id: '1', transaction_id: String(id) })).status, path).to.equal(403);
    }
    expect(await transaction(id)).to.include({ status: 'pending', amount: '8.0000' });
  });

  it('offers a member without the billing area neither form and refuses their forged posts with 403, changing nothing', async () => {
    const id = await authorised(1, clientId, '40.00');
    await addStaff(server.installation, 'helper', 'helper password 1');
    await staff.get('/admin/settings/staff');
    await staff.post('/admin/settings/staff/groups/presets', { company_id: '1' });
    const support = ((await call(1, 'staff_groups', 'getAll')) as Array<{ id: number; name: string }>).find((g) => g.name === 'Support')!;
    const user = await call(1, 'users', 'getByUsername', { username: 'helper' });
    const helperId = (await call(1, 'staff', 'getByUserId', { user_id: user.id })).id;
    expect((await staff.post('/admin/settings/staff/assign', { company_id: '1', staff_id: String(helperId), staff_group_id: String(support.id) })).status).to.equal(303);
    const helper = new AdminClient(server.url);
    await helper.signIn('helper', 'helper password 1');
    const page = await helper.get(`/admin/payments/view?transaction_id=${id}`);
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('Your staff group can view invoices, payments and payment accounts but not change them.').and.not.to.contain('method="post" action="/admin/payments');
    for (const path of ['/admin/payments/capture', '/admin/payments/void']) {
      const forged = await helper.post(path, { company_id: '1', transaction_id: String(id) });
      expect(forged.status, path).to.equal(403);
      expect(forged.text, path).to.contain('nothing was changed');
    }
    expect(await transaction(id)).to.include({ status: 'pending', amount: '40.0000' });
  });

  it("puts capture and void in the audit log under the staff member's name, and a member's refusal under theirs", async () => {
    const seen = await auditLines(server.installation);
    for (const line of [
      'staff:morgan admin/payments/capture 303',
      'staff:morgan gateway_payments/capture 200',
      'staff:morgan admin/payments/void 303',
      'staff:morgan gateway_payments/void 200',
      'staff:helper admin/payments/capture 403',
      'staff:helper admin/payments/void 403',
    ]) {
      expect(seen).to.include(line);
    }
    // The member's posts are refused in front of the model (area-gate.ts): no gateway call was even attempted.
    expect(seen).not.to.include('staff:helper gateway_payments/capture 403');
    expect(seen).not.to.include('staff:helper gateway_payments/void 403');
  });
});
