import { expect } from 'chai';
import { TestServer } from '../../../support/test-server';
import { addInvoice, newCompany } from '../billing/fixtures';
import { addCard, addClient, call, ok, recurringServer, runAt, setSettings } from './support';

/**
 * Payment reminders: the run records each notice the company turns on as an invoice_notices
 * record, once per invoice and notice, for a deliverer to read and mark sent.
 */
describe('recurring billing: payment reminders as notices to deliver', () => {
  let server: TestServer;
  let mailed: number;
  let debited: number;
  let mailedInvoice: number;
  let debitedInvoice: number;
  let forgotten: number;

  // Sorted: on PostgreSQL the run's lanes record different clients' notices in any order.
  const notices = async (params: Record<string, unknown> = {}) =>
    (await ok(server, 'GET', 'invoice_notices/getList', { status: 'all', ...params })).map((n: any) => `${n.invoice_id}:${n.notice}`).sort();

  before(async () => {
    ({ server } = await recurringServer());
    await setSettings(server, { notice1: '-5', notice2: '3', notice3: '10', notice_pending_autodebit: '2', autodebit_days_before_due: '1' });
    mailed = await addClient(server);
    debited = await addClient(server);
    await addCard(server, debited);
    const dates = { date_billed: '2027-02-01 00:00:00 UTC', date_due: '2027-02-10 00:00:00 UTC' };
    mailedInvoice = await addInvoice(server, mailed, dates);
    debitedInvoice = await addInvoice(server, debited, dates);
    // Long overdue when reminders were turned on: its notices' days are past catching up.
    forgotten = await addInvoice(server, mailed, { date_billed: '2026-12-01 00:00:00 UTC', date_due: '2027-01-01 00:00:00 UTC' });
  });
  after(() => server.close());

  it('refuses a notice day that is not disabled or a number of days', async () => {
    const res = await call(server, 'PUT', 'settings/set', { key: 'notice1', value: 'soon' });
    expect(res.status).to.equal(400);
  });

  it("records nothing before a notice's day, then the first notice on it, once however often the run goes", async () => {
    await runAt(server, '2027-02-04 12:00:00');
    expect(await notices()).to.deep.equal([]);
    await runAt(server, '2027-02-05 12:00:00');
    await runAt(server, '2027-02-05 18:00:00');
    expect(await notices()).to.deep.equal([`${mailedInvoice}:notice1`, `${debitedInvoice}:notice1`]);
    const [first] = await ok(server, 'GET', 'invoice_notices/getList', { client_id: mailed });
    expect(first).to.include({
      client_id: mailed,
      invoice_id: mailedInvoice,
      notice: 'notice1',
      date_due: '2027-02-10 00:00:00',
      date_added: '2027-02-05 12:00:00',
      status: 'pending',
      date_sent: null,
    });
  });

  it('tells an autodebit client of the charge two days ahead, once under two runs at once', async () => {
    await Promise.all([runAt(server, '2027-02-07 12:00:00'), runAt(server, '2027-02-07 12:00:00')]);
    expect(await notices({ client_id: debited })).to.deep.equal([`${debitedInvoice}:notice1`, `${debitedInvoice}:notice_pending_autodebit`]);
    expect(await notices({ client_id: mailed }), 'no card, no auto debit notice').to.deep.equal([`${mailedInvoice}:notice1`]);
  });

  it('sends late notices only for what is still unpaid, and catches up a missed day', async () => {
    await runAt(server, '2027-02-09 12:00:00');
    expect((await ok(server, 'GET', 'invoices/get', { invoice_id: debitedInvoice })).date_closed, 'autodebited').to.not.equal(null);
    await runAt(server, '2027-02-13 12:00:00');
    // No run from the 14th to the 21st: the third notice's day (the 20th) is caught up on the 21st.
    await runAt(server, '2027-02-21 12:00:00');
    expect(await notices({ client_id: debited }), 'paid: no late notices').to.have.length(2);
    expect(await notices({ client_id: mailed })).to.deep.equal([`${mailedInvoice}:notice1`, `${mailedInvoice}:notice2`, `${mailedInvoice}:notice3`]);
    expect(await notices({ client_id: mailed }), `invoice ${forgotten} was never reminded`).to.not.include(`${forgotten}:notice3`);
  });

  it('lists pending notices of open invoices for delivery, and marks each sent once', async () => {
    const pending = await ok(server, 'GET', 'invoice_notices/getList', {});
    expect(
      pending.map((n: any) => n.invoice_id),
      "the paid invoice's notices are not to be sent",
    ).to.deep.equal([mailedInvoice, mailedInvoice, mailedInvoice]);
    expect(await ok(server, 'GET', 'invoice_notices/getListCount', {})).to.equal(3);
    expect(await ok(server, 'PUT', 'invoice_notices/markSent', { notice_id: pending[0].id })).to.equal(true);
    expect(await ok(server, 'PUT', 'invoice_notices/markSent', { notice_id: pending[0].id })).to.equal(false);
    expect(await ok(server, 'GET', 'invoice_notices/get', { notice_id: pending[0].id })).to.include({ status: 'sent' });
    expect(await ok(server, 'GET', 'invoice_notices/getListCount', {})).to.equal(2);
    expect(await ok(server, 'GET', 'invoice_notices/getListCount', { status: 'sent' })).to.equal(1);
    expect(Object.keys(await ok(server, 'GET', 'invoice_notices/getTypes'))).to.deep.equal(['notice1', 'notice2', 'notice3', 'notice_pending_autodebit']);
  });

  it('answers bad input with a 400, and another company sees none of it', async () => {
    expect((await call(server, 'GET', 'invoice_notices/getList', { status: 'unsent' })).json.errors.status).to.have.property('format');
    expect((await call(server, 'PUT', 'invoice_notices/markSent', { notice_id: 999999 })).json.errors.notice_id).to.have.property('exists');
    const other = await newCompany(server, 'Elsewhere');
    const [notice] = await ok(server, 'GET', 'invoice_notices/getList', {});
    expect(await ok(server, 'GET', 'invoice_notices/get', { notice_id: notice.id }, other.auth)).to.equal(false);
    expect(await ok(server, 'GET', 'invoice_notices/getList', { status: 'all' }, other.auth)).to.deep.equal([]);
    expect((await call(server, 'PUT', 'invoice_notices/markSent', { notice_id: notice.id }, other.auth)).status).to.equal(400);
    expect(await ok(server, 'GET', 'invoice_notices/get', { notice_id: notice.id })).to.include({ status: 'pending' });
  });
});
