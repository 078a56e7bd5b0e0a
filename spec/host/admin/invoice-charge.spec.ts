import { expect } from 'chai';
import { ExtensionsDir } from '../extensions/fixtures';
import { startTestServer, TestServer } from '../../support/test-server';
import { AdminClient, addStaff } from './support/admin-client';
import { signedInMember } from './support/staff-member';
import { specCardsExtensions } from './support/spec-cards';

const REFUSED = 'The requested resource is not accessible.';

/**
 * An invoice's "Charge a stored account" over plain HTTP: the client's own cards are offered, a
 * charge the processor declines is shown with its reason and records nothing, an account of
 * another client or company is refused with the model's message, an approved charge pays the
 * invoice (and can be refunded through its gateway); a member without the billing area is not
 * offered the form and their forged post changes nothing.
 */
describe('charging a stored account from an invoice (admin area over HTTP)', function () {
  this.timeout(120_000);
  let dir: ExtensionsDir;
  let server: TestServer;
  let staff: AdminClient;
  let invoiceId: number;
  let goodCard: number;
  let declinedCard: number;
  let otherClientCard: number;
  let theirCard: number;

  const call = (companyId: number, model: string, method: string, params: Record<string, unknown> = {}) => server.installation.call(model, method, params, { companyId, user: 'spec' }) as Promise<any>;
  const invoice = () => call(1, 'invoices', 'get', { invoice_id: invoiceId });
  const transactions = () => call(1, 'transactions', 'getList', { status: 'all' });
  const card = (companyId: number, clientId: number, number: string) =>
    call(companyId, 'accounts', 'addCc', { vars: { client_id: clientId, number, expiration: '203012', security_code: '123', gateway: 'spec_cards' } }) as Promise<number>;
  const charge = (accountId: number, as = staff) => as.post('/admin/invoices/charge', { company_id: '1', invoice_id: String(invoiceId), account_id: String(accountId) });

  before(async () => {
    dir = specCardsExtensions();
    server = await startTestServer({ extensionsDir: dir.root });
    await addStaff(server.installation);
    staff = new AdminClient(server.url);
    await staff.signIn();
    const other = (await server.installation.call('companies', 'add', { vars: { name: 'Other Co' } }, { companyId: 1, user: 'spec' })) as number;
    for (const company of [1, other]) await call(company, 'gateway_manager', 'add', { vars: { dir: 'spec_cards' } });
    const clientId = await call(1, 'clients', 'add', { vars: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' } });
    const otherClient = await call(1, 'clients', 'add', { vars: { first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com' } });
    const theirClient = await call(other, 'clients', 'add', { vars: { first_name: 'Their', last_name: 'Client', email: 'their@example.com' } });
    goodCard = await card(1, clientId, '4242424242424242');
    declinedCard = await card(1, clientId, '4000000000000002');
    otherClientCard = await card(1, otherClient, '5555555555554444');
    theirCard = await card(other, theirClient, '4242424242424242');
    invoiceId = await call(1, 'invoices', 'add', {
      vars: { client_id: clientId, date_billed: '2026-11-01T00:00:00Z', date_due: '2026-12-01T00:00:00Z', currency: 'USD', lines: [{ description: 'Hosting', amount: '30.00', qty: 1 }] },
    });
  });
  after(async () => {
    await server?.close();
    dir?.remove();
  });

  it("offers the client's own cards only", async () => {
    const page = await staff.get(`/admin/invoices/view?invoice_id=${invoiceId}`);
    expect(page.text).to.contain('Charge a stored account').and.contain(`<option value="${goodCard}">`).and.contain(`<option value="${declinedCard}">`);
    expect(page.text).not.to.contain(`<option value="${otherClientCard}">`);
  });

  it("shows a decline with the processor's reason and records nothing", async () => {
    const before = [await invoice(), await transactions()];
    const declined = await charge(declinedCard);
    expect(declined.status).to.equal(400);
    expect(declined.text).to.contain('The charge was declined: Insufficient funds. Nothing was recorded.');
    expect([await invoice(), await transactions()]).to.deep.equal(before);
  });

  it("refuses another client's or another company's account with the model's message, changing nothing", async () => {
    const before = [await invoice(), await transactions()];
    for (const account of [otherClientCard, theirCard]) {
      const refused = await charge(account);
      expect(refused.status, String(account)).to.equal(400);
      expect(refused.text).to.contain('Invalid account ID.');
    }
    expect([await invoice(), await transactions()]).to.deep.equal(before);
  });

  it('refuses a forged charge from a member without the billing area, and does not offer them the form', async () => {
    const member = await signedInMember(server, 'supporter', ['clients', 'services']);
    const page = await member.get(`/admin/invoices/view?invoice_id=${invoiceId}`);
    expect(page.status).to.equal(200);
    expect(page.text).not.to.contain('action="/admin/invoices/charge"');
    const before = [await invoice(), await transactions()];
    const forged = await charge(goodCard, member);
    expect(forged.status).to.equal(403);
    expect(forged.text).to.contain(REFUSED);
    expect([await invoice(), await transactions()]).to.deep.equal(before);
  });

  it('pays the invoice with an approved charge, which can then be refunded through its gateway', async () => {
    const approved = await charge(goodCard);
    expect(approved.status, approved.text).to.equal(303);
    const page = await staff.get(approved.location!);
    expect(page.text).to.contain('The charge was approved').and.contain('Paid invoice for');
    expect(page.text).not.to.contain('action="/admin/invoices/charge"');
    const [payment] = await transactions();
    expect(payment).to.include({ gateway: 'spec_cards', amount: '30.0000', status: 'approved' });
    expect(page.text).to.contain(`/admin/payments/view?company=1&amp;transaction_id=${payment.id}">#${payment.id}</a>`);
    expect((await invoice()).date_closed).to.be.a('string');
    const again = await charge(goodCard);
    expect(again.status).to.equal(400);
    expect(again.text).to.contain('This invoice is not open for payment.');
    await staff.get(`/admin/payments/view?transaction_id=${payment.id}`);
    const refunded = await staff.post('/admin/payments/refund', { company_id: '1', transaction_id: String(payment.id), amount: '' });
    expect(refunded.status, refunded.text).to.equal(303);
    expect((await call(1, 'transactions', 'get', { transaction_id: payment.id })).refunded).to.equal('30.0000');
  });
});
