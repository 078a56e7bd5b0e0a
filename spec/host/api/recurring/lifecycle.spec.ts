import { expect } from 'chai';
import { TestServer } from '../../../support/test-server';
import { addCard, addClient, addPackage, invoicesOf, moduleService, ok, recurringServer, runAt, serviceOf, setSettings } from './support';

/**
 * The whole recurring lifecycle over HTTP with the real generic_server module and test_card
 * gateway, the billing run driven by its clock: bought mid-month and prorated, invoiced,
 * autodebited, provisioned, renewed; a declining card suspended past the grace days and
 * unsuspended once paid.
 */
describe('recurring billing: a service from purchase to suspension', () => {
  let server: TestServer;
  let moduleId: number;
  let pricingId: number;
  let payer: number;
  let decliner: number;
  let paying: number;
  let declining: number;

  before(async () => {
    ({ server, moduleId } = await recurringServer());
    await setSettings(server, { inv_days_before_renewal: '5', autodebit_days_before_due: '1', suspend_services_days_after_due: '3', autodebit_attempts: '3' });
    ({ pricingId } = await addPackage(server, moduleId, { prorata_day: 1 }));
    payer = await addClient(server);
    decliner = await addClient(server);
    await addCard(server, payer);
    await addCard(server, decliner, '4000000000000002');
  });
  after(() => server.close());

  it('prorates a service bought mid-month to the pro rata day', async () => {
    paying = await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: payer, date_added: '2027-01-16 10:00:00 UTC', domain: 'payer.example.com' } });
    const service = await serviceOf(server, paying);
    expect(service).to.include({ status: 'pending', date_renews: '2027-02-01 00:00:00' });
    const invoiceId = await ok(server, 'POST', 'invoices/createFromServices', { client_id: payer, service_ids: [paying], currency: 'USD', due_date: '2027-01-16 10:00:00 UTC' });
    const invoice = await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId });
    // 16 of January's 31 days (16th to 1st), of 31.00.
    expect(invoice.total).to.equal('16.0000');
    const again = await server.request('POST', '/api/invoices/createFromServices.json', { body: `client_id=${payer}&service_ids[]=${paying}&currency=USD&due_date=2027-01-16` });
    expect(again.status).to.equal(400);
    expect(again.json.errors.service_ids).to.have.property('invoiced');
  });

  it('autodebits the first invoice and provisions the paid service through the module', async () => {
    await runAt(server, '2027-01-16 12:00:00');
    const [invoice] = await invoicesOf(server, payer);
    expect(invoice.date_closed, 'paid').to.not.equal(null);
    const service = await serviceOf(server, paying);
    expect(service.status).to.equal('active');
    const onModule = await moduleService(server, service);
    expect(onModule).to.include({ domain: 'payer.example.com', status: 'active', plan: 'basic' });
    const password = service.fields.find((f: any) => f.key === 'password');
    expect(password.encrypted).to.equal(1);
  });

  it('invoices the renewal within the invoice days, once, and moves the renew date', async () => {
    declining = await ok(server, 'POST', 'services/add', {
      vars: { pricing_id: pricingId, client_id: decliner, status: 'active', date_added: '2027-01-01 00:00:00 UTC', domain: 'decliner.example.com' },
    });
    expect((await serviceOf(server, declining)).date_renews).to.equal('2027-02-01 00:00:00');
    await runAt(server, '2027-01-26 12:00:00');
    expect(await invoicesOf(server, decliner)).to.have.length(0);
    await runAt(server, '2027-01-27 12:00:00');
    await runAt(server, '2027-01-27 18:00:00');
    const invoices = await invoicesOf(server, decliner);
    expect(invoices).to.have.length(1);
    expect(invoices[0]).to.include({ total: '31.0000', date_due: '2027-02-01 00:00:00' });
    expect(await serviceOf(server, declining)).to.include({ date_renews: '2027-03-01 00:00:00', date_last_renewed: '2027-02-01 00:00:00' });
    expect(await invoicesOf(server, payer)).to.have.length(2);
  });

  it('charges the renewal on the autodebit day and tells the module about the paid renewal', async () => {
    await runAt(server, '2027-01-31 12:00:00');
    const renewal = (await invoicesOf(server, payer)).find((i: any) => i.total === '31.0000');
    expect(renewal.date_closed).to.not.equal(null);
    const onModule = await moduleService(server, await serviceOf(server, paying));
    expect(onModule.date_renewed).to.be.a('string');
  });

  it('retries a declining card once a day up to the attempt limit, then suspends past the grace days', async () => {
    await runAt(server, '2027-02-01 12:00:00');
    await runAt(server, '2027-02-01 13:00:00');
    await runAt(server, '2027-02-02 12:00:00');
    await runAt(server, '2027-02-03 12:00:00');
    const attempts = await ok(server, 'GET', 'test_card.cards/getList', { client_id: decliner });
    expect(attempts.map((a: any) => a.status)).to.deep.equal(['declined', 'declined', 'declined']);
    expect((await serviceOf(server, declining)).status).to.equal('active');
    await runAt(server, '2027-02-04 12:00:00');
    const service = await serviceOf(server, declining);
    expect(service.status).to.equal('suspended');
    expect((await moduleService(server, service)).status).to.equal('suspended');
  });

  it('unsuspends once the invoice is paid', async () => {
    const [invoice] = await invoicesOf(server, decliner);
    await ok(server, 'POST', 'transactions/add', { vars: { client_id: decliner, amount: '31.00', currency: 'USD', invoices: [{ invoice_id: invoice.id }] } });
    await runAt(server, '2027-02-05 12:00:00');
    const service = await serviceOf(server, declining);
    expect(service.status).to.equal('active');
    expect((await moduleService(server, service)).status).to.equal('active');
  });

  it('spends loose credit on a renewal invoice, and tells the module about the paid renewal', async () => {
    const saver = await addClient(server);
    await ok(server, 'POST', 'transactions/add', { vars: { client_id: saver, amount: '100.00', currency: 'USD' } });
    const serviceId = await ok(server, 'POST', 'services/add', {
      vars: { pricing_id: pricingId, client_id: saver, status: 'active', date_added: '2027-03-01 00:00:00 UTC', domain: 'saver.example.com' },
    });
    await runAt(server, '2027-03-28 12:00:00');
    const [invoice] = await invoicesOf(server, saver);
    expect(invoice).to.include({ total: '31.0000' });
    expect(invoice.date_closed, 'paid from credit').to.not.equal(null);
    expect(await ok(server, 'GET', 'transactions/getCredit', { client_id: saver, currency: 'USD' })).to.equal('69.0000');
    expect((await moduleService(server, await serviceOf(server, serviceId))).date_renewed).to.be.a('string');
  });

  it('cancels a scheduled cancellation on its day through the module, without invoicing the period after it', async () => {
    const leaver = await addClient(server);
    const serviceId = await ok(server, 'POST', 'services/add', {
      vars: { pricing_id: pricingId, client_id: leaver, status: 'active', date_added: '2027-03-01 00:00:00 UTC', domain: 'leaver.example.com' },
    });
    await ok(server, 'POST', 'services/cancel', { service_id: serviceId, vars: { date_canceled: 'end_of_term' } });
    await runAt(server, '2027-03-28 12:00:00');
    expect(await invoicesOf(server, leaver)).to.have.length(0);
    expect((await serviceOf(server, serviceId)).status).to.equal('active');
    await runAt(server, '2027-04-01 00:30:00');
    const service = await serviceOf(server, serviceId);
    expect(service).to.include({ status: 'canceled', date_canceled: '2027-04-01 00:30:00' });
    expect((await moduleService(server, service)).status).to.equal('cancelled');
  });

  it('never unsuspends a service staff took over with a reason of their own, nor one staff suspended through services/edit', async () => {
    const held = await addClient(server);
    const add = (domain: string) => ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: held, status: 'active', date_added: '2027-05-01 00:00:00 UTC', domain } });
    const [unpaid, abusive, other] = [await add('held1.example.com'), await add('held2.example.com'), await add('held3.example.com')];
    await runAt(server, '2027-05-28 12:00:00');
    const [invoice] = await invoicesOf(server, held);
    expect(invoice).to.include({ total: '93.0000', date_due: '2027-06-01 00:00:00' });
    await runAt(server, '2027-06-05 12:00:00');
    for (const id of [unpaid, abusive, other]) expect(await serviceOf(server, id)).to.include({ status: 'suspended', suspension_reason: 'Not paid.' });
    // Staff hold one for abuse; another, unsuspended by hand, they suspend again through services/edit with a reason.
    await ok(server, 'PUT', 'services/edit', { service_id: abusive, vars: { suspension_reason: 'Abuse: spam' } });
    await ok(server, 'POST', 'services/unsuspend', { service_id: other });
    await ok(server, 'PUT', 'services/edit', { service_id: other, vars: { status: 'suspended', suspension_reason: 'Chargeback' } });
    expect(await serviceOf(server, other)).to.include({ status: 'suspended', suspension_reason: 'Chargeback' });
    await ok(server, 'POST', 'transactions/add', { vars: { client_id: held, amount: '93.00', currency: 'USD', invoices: [{ invoice_id: invoice.id }] } });
    await runAt(server, '2027-06-06 12:00:00');
    expect(await serviceOf(server, unpaid)).to.include({ status: 'active', suspension_reason: null });
    expect(await serviceOf(server, abusive)).to.include({ status: 'suspended', suspension_reason: 'Abuse: spam' });
    expect(await serviceOf(server, other)).to.include({ status: 'suspended', suspension_reason: 'Chargeback' });
    expect((await moduleService(server, await serviceOf(server, abusive))).status).to.equal('suspended');
  });
});
