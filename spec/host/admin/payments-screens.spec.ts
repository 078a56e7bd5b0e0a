import { expect } from 'chai';
import { ExtensionsDir, manifest } from '../extensions/fixtures';
import { send, startTestServer, TestServer } from '../../support/test-server';
import { AdminClient, addStaff } from './support/admin-client';

const HOSTILE = '<img src=x onerror=alert(1)>';
const ESCAPED = '&lt;img src=x onerror=alert(1)&gt;';

/**
 * A non-merchant gateway standing in for a processor: a notification `client:amount:id` is an
 * approved payment of that client; a refund answers a refund id, except of 7.00 (the processor refuses).
 */
const SPEC_PAY = `
class Payments {
  validate(n) {
    const [client, amount, id] = String(n.body).split(':');
    return { client_id: Number(client), amount, currency: 'USD', status: 'approved', transaction_id: id };
  }
  refund(vars) {
    if (vars.amount === '7.0000') throw new Error('the processor refused the refund');
    return { refund_id: 're_' + vars.transaction_id + '_' + vars.amount, status: 'succeeded' };
  }
}
Payments.callable = { validate: { params: [{ name: 'notification', kind: 'object' }] }, refund: { params: [{ name: 'vars', kind: 'object' }] } };
exports.models = { payments: Payments };
`;

/**
 * Payments in the admin area over plain HTTP: the gateway inbox (a notification as received, its
 * body hostile text; processing it again records nothing twice), the transactions list and its
 * filters, a transaction applied to an open invoice and taken off it, refunded through its
 * gateway (and refused by it, changing nothing). Another company's transactions and
 * notifications cannot be reached by ids; a member without the billing area sees every page with
 * no action offered, and their forged posts are refused with 403.
 */
describe('payment screens and the gateway inbox (admin area over HTTP)', function () {
  this.timeout(120_000);
  let dir: ExtensionsDir;
  let server: TestServer;
  let staff: AdminClient;
  let clientId: number;
  let otherClientId: number;
  let invoiceId: number;
  let transactionId: number;
  let notificationId: number;
  let theirTransactionId: number;
  let theirNotificationId: number;

  const call = (companyId: number, model: string, method: string, params: Record<string, unknown> = {}) => server.installation.call(model, method, params, { companyId, user: 'spec' }) as Promise<any>;
  const notify = (companyId: number, body: string) =>
    send(server.url, server.credential, 'POST', `/callback/gw/${companyId}/spec_pay/`, { auth: false, body, headers: { 'content-type': 'text/plain' } });
  const transaction = (id: number) => call(1, 'transactions', 'get', { transaction_id: id });

  before(async () => {
    dir = new ExtensionsDir().add('gateways/nonmerchant/spec_pay', manifest('Spec pay', { currencies: ['USD'] }), SPEC_PAY);
    server = await startTestServer({ extensionsDir: dir.root });
    await addStaff(server.installation);
    staff = new AdminClient(server.url);
    await staff.signIn();
    const other = (await server.installation.call('companies', 'add', { vars: { name: 'Other Co' } }, { companyId: 1, user: 'spec' })) as number;
    for (const company of [1, other]) await call(company, 'gateway_manager', 'add', { vars: { dir: 'spec_pay' } });
    clientId = await call(1, 'clients', 'add', { vars: { first_name: 'Grace', last_name: HOSTILE, email: 'grace@example.com' } });
    otherClientId = await call(1, 'clients', 'add', { vars: { first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com' } });
    invoiceId = await call(1, 'invoices', 'add', {
      vars: { client_id: clientId, date_billed: '2026-11-01T00:00:00Z', date_due: '2026-12-01T00:00:00Z', currency: 'USD', lines: [{ description: 'Hosting', amount: '30.00', qty: 1 }] },
    });
    await call(1, 'transactions', 'add', { vars: { client_id: otherClientId, amount: '5.00', currency: 'USD', type: 'other', date_added: '2025-01-15 10:00:00 UTC' } });
    // Another company's client, paid through its own gateway callback.
    const theirClient = await call(other, 'clients', 'add', { vars: { first_name: 'Their', last_name: 'Client', email: 'their@example.com' } });
    expect((await notify(other, `${theirClient}:9.00:their_1`)).status).to.equal(200);
    [{ id: theirNotificationId, transaction_id: theirTransactionId }] = await call(other, 'gateway_notifications', 'getList');
  });
  after(async () => {
    await server?.close();
    dir?.remove();
  });

  it('says so while the inbox is empty', async () => {
    const inbox = await staff.get('/admin/payments/inbox');
    expect(inbox.status).to.equal(200);
    expect(inbox.text).to.contain('No notifications yet.');
  });

  it('lists a notification as received, its body text, with the transaction it made', async () => {
    expect((await notify(1, `${clientId}:30.00:ch_1`)).status).to.equal(200);
    const [latest] = await call(1, 'gateway_notifications', 'getList');
    notificationId = latest.id;
    transactionId = latest.transaction_id;
    expect(latest.verdict).to.equal('recorded');
    const inbox = await staff.get('/admin/payments/inbox');
    expect(inbox.text).to.contain('recorded').and.contain(`transaction_id=${transactionId}`).and.contain(`notification_id=${notificationId}`);
    expect(inbox.text).not.to.contain(`notification_id=${theirNotificationId}"`);
    // A body that is markup is shown as text.
    expect((await notify(1, `${clientId}:${HOSTILE}:ch_bad`)).status).to.equal(200);
    const [hostile] = await call(1, 'gateway_notifications', 'getList');
    const view = await staff.get(`/admin/payments/inbox/view?notification_id=${hostile.id}`);
    expect(view.status).to.equal(200);
    expect(view.text).to.contain(ESCAPED).and.not.to.contain(HOSTILE);
  });

  it('processes a notification again without recording the payment twice', async () => {
    await staff.get(`/admin/payments/inbox/view?notification_id=${notificationId}`);
    const res = await staff.post('/admin/payments/inbox/reprocess', { company_id: '1', notification_id: String(notificationId) });
    expect(res.status, res.text).to.equal(303);
    const page = await staff.get(res.location!);
    expect(page.text).to.contain('Processed again: duplicate');
    expect(await call(1, 'transactions', 'getListCount', { client_id: clientId, status: 'all' })).to.equal(1);
    expect((await call(1, 'gateway_notifications', 'get', { notification_id: notificationId })).attempts).to.equal(2);
  });

  it('lists transactions with clients named, filtered by status, type, client and day', async () => {
    const all = await staff.get('/admin/payments');
    expect(all.status).to.equal(200);
    expect(all.text).to.contain(`Grace ${ESCAPED}`).and.contain('Alan Turing').and.not.to.contain(HOSTILE);
    expect(all.text).not.to.contain(`transaction_id=${theirTransactionId}"`);
    const byClient = await staff.get(`/admin/payments?client_id=${otherClientId}`);
    expect(byClient.text).to.contain('Alan Turing').and.not.to.contain(`transaction_id=${transactionId}"`);
    const byDay = await staff.get('/admin/payments?date_from=2025-01-01&date_to=2025-01-31');
    expect(byDay.text).to.contain('Alan Turing').and.not.to.contain(`transaction_id=${transactionId}"`);
    expect((await staff.get('/admin/payments?type=cc')).text).to.contain('No transactions match these filters.');
    expect((await staff.get('/admin/payments?status=refunded')).text).to.contain('No transactions match these filters.');
    const badDay = await staff.get('/admin/payments?date_from=2025-02-30');
    expect(badDay.status).to.equal(400);
    expect(badDay.text).to.contain('Give the day as YYYY-MM-DD.');
    const badClient = await staff.get('/admin/payments?client_id=999999');
    expect(badClient.status).to.equal(400);
    expect(badClient.text).to.contain('The company in view has no such client.').and.contain('No transactions match these filters.');
  });

  it('applies the credit to an open invoice and takes it off again', async () => {
    const page = await staff.get(`/admin/payments/view?transaction_id=${transactionId}`);
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('Apply the credit to an open invoice').and.contain(`<option value="${invoiceId}">`);
    const applied = await staff.post('/admin/payments/apply', { company_id: '1', transaction_id: String(transactionId), invoice_id: String(invoiceId), amount: '' });
    expect(applied.status, applied.text).to.equal(303);
    expect((await call(1, 'invoices', 'get', { invoice_id: invoiceId })).date_closed).not.to.equal(null);
    expect((await staff.get(applied.location!)).text)
      .to.contain('The payment has been applied to the invoice.')
      .and.contain('Unapply');
    const unknown = await staff.post('/admin/payments/apply', { company_id: '1', transaction_id: String(transactionId), invoice_id: '999999' });
    expect(unknown.status).to.equal(400);
    expect(unknown.text).to.contain('Invalid invoice ID.');
    const unapplied = await staff.post('/admin/payments/unapply', { company_id: '1', transaction_id: String(transactionId), invoice_id: String(invoiceId) });
    expect(unapplied.status, unapplied.text).to.equal(303);
    expect((await call(1, 'invoices', 'get', { invoice_id: invoiceId })).date_closed).to.equal(null);
    expect((await transaction(transactionId)).credit).to.equal('30.0000');
  });

  it('refunds through the gateway; a refund the processor refuses changes nothing', async () => {
    const refused = await staff.post('/admin/payments/refund', { company_id: '1', transaction_id: String(transactionId), amount: '7.00' });
    expect(refused.status).to.equal(400);
    expect(refused.text).to.contain('That could not be saved');
    expect((await transaction(transactionId)).refunded).to.equal('0.0000');
    const refunded = await staff.post('/admin/payments/refund', { company_id: '1', transaction_id: String(transactionId), amount: '10.00' });
    expect(refunded.status, refunded.text).to.equal(303);
    const after = await transaction(transactionId);
    expect(after.refunded).to.equal('10.0000');
    expect(after.refunds.map((r: any) => r.reference)).to.deep.equal(['re_ch_1_10.0000']);
    expect((await staff.get(refunded.location!)).text).to.contain('The gateway refunded the payment');
    // A payment recorded by hand has no gateway to refund through: the model says so.
    const [byHand] = await call(1, 'transactions', 'getList', { client_id: otherClientId });
    const noGateway = await staff.post('/admin/payments/refund', { company_id: '1', transaction_id: String(byHand.id) });
    expect(noGateway.status).to.equal(400);
    expect(noGateway.text).to.contain('was not taken by an installed gateway that refunds');
  });

  it("cannot see or act on another company's transactions or notifications by changing ids", async () => {
    expect((await staff.get(`/admin/payments/view?transaction_id=${theirTransactionId}`)).status).to.equal(404);
    expect((await staff.get(`/admin/payments/inbox/view?notification_id=${theirNotificationId}`)).status).to.equal(404);
    await staff.get('/admin/payments');
    for (const [path, fields] of [
      ['/admin/payments/refund', { transaction_id: String(theirTransactionId) }],
      ['/admin/payments/unapply', { transaction_id: String(theirTransactionId), invoice_id: String(invoiceId) }],
      ['/admin/payments/apply', { transaction_id: String(theirTransactionId), invoice_id: String(invoiceId) }],
      ['/admin/payments/inbox/reprocess', { notification_id: String(theirNotificationId) }],
    ] as const) {
      expect((await staff.post(path, { company_id: '1', ...fields })).status, path).to.equal(404);
    }
    const theirs = await call(2, 'transactions', 'get', { transaction_id: theirTransactionId });
    expect(theirs.refunded).to.equal('0.0000');
    expect((await call(2, 'gateway_notifications', 'get', { notification_id: theirNotificationId })).attempts).to.equal(1);
  });

  it('shows the payment screens to a member without the billing area, with no action offered, and refuses their forged posts with 403, changing nothing', async () => {
    await addStaff(server.installation, 'helper', 'helper password 1');
    await staff.get('/admin/settings/staff');
    await staff.post('/admin/settings/staff/groups/presets', { company_id: '1' });
    const support = ((await call(1, 'staff_groups', 'getAll')) as Array<{ id: number; name: string }>).find((g) => g.name === 'Support')!;
    const user = await call(1, 'users', 'getByUsername', { username: 'helper' });
    const helperId = (await call(1, 'staff', 'getByUserId', { user_id: user.id })).id;
    expect((await staff.post('/admin/settings/staff/assign', { company_id: '1', staff_id: String(helperId), staff_group_id: String(support.id) })).status).to.equal(303);
    // The billing member's page offers what the support member's must not: the spec would pass on nothing otherwise.
    expect((await staff.get(`/admin/payments/view?transaction_id=${transactionId}`)).text)
      .to.contain('action="/admin/payments/apply"')
      .and.contain('action="/admin/payments/refund"');
    const helper = new AdminClient(server.url);
    await helper.signIn('helper', 'helper password 1');
    expect((await helper.get('/admin')).text)
      .to.contain('>Payments</a>')
      .and.contain('>Gateway inbox</a>');
    const viewOnly = 'Your staff group can view invoices, payments and payment accounts but not change them.';
    const pages: Array<[string, string]> = [
      ['/admin/payments', `transaction_id=${transactionId}`],
      [`/admin/payments/view?transaction_id=${transactionId}`, viewOnly],
      ['/admin/payments/inbox', `notification_id=${notificationId}`],
      [`/admin/payments/inbox/view?notification_id=${notificationId}`, viewOnly],
    ];
    for (const [path, shown] of pages) {
      const page = await helper.get(path);
      expect(page.status, path).to.equal(200);
      expect(page.text, path).to.contain(shown).and.not.to.contain('method="post" action="/admin/payments');
    }
    const before = {
      transaction: await transaction(transactionId),
      invoice: await call(1, 'invoices', 'get', { invoice_id: invoiceId }),
      notification: await call(1, 'gateway_notifications', 'get', { notification_id: notificationId }),
    };
    for (const [path, fields] of [
      ['/admin/payments/refund', { transaction_id: String(transactionId) }],
      ['/admin/payments/apply', { transaction_id: String(transactionId), invoice_id: String(invoiceId) }],
      ['/admin/payments/unapply', { transaction_id: String(transactionId), invoice_id: String(invoiceId) }],
      ['/admin/payments/inbox/reprocess', { notification_id: String(notificationId) }],
    ] as const) {
      const forged = await helper.post(path, { company_id: '1', ...fields });
      expect(forged.status, path).to.equal(403);
      expect(forged.text, path).to.contain('The requested resource is not accessible.').and.contain('nothing was changed');
    }
    expect(await transaction(transactionId)).to.deep.equal(before.transaction);
    expect(await call(1, 'invoices', 'get', { invoice_id: invoiceId })).to.deep.equal(before.invoice);
    expect(await call(1, 'gateway_notifications', 'get', { notification_id: notificationId })).to.deep.equal(before.notification);
    expect((await transaction(transactionId)).refunded).to.equal('10.0000');
    // The model refuses it too, whoever carries the call: gateway refunds are the billing area's.
    const direct = await server.installation.answer({
      model: 'gateway_payments',
      method: 'refund',
      params: { transaction_id: transactionId },
      caller: { companyId: 1, user: 'staff:helper', staffId: helperId },
      via: 'admin',
    });
    expect(direct.status).to.equal(403);
    expect((await transaction(transactionId)).refunded).to.equal('10.0000');
  });
});
