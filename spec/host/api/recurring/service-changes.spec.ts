import { expect } from 'chai';
import { TestServer } from '../../../support/test-server';
import { call, newCompany, pay } from '../billing/fixtures';
import { addClient, addPackage, invoicesOf, moduleService, ok, recurringServer, runAt, serviceOf, setSettings } from './support';

/**
 * Queued service changes (the reference's ServiceChanges, docs/billing.md): with
 * queue_service_changes on, services/edit invoices an upgrade and keeps it pending until that
 * invoice is paid; the billing run's process_service_changes task applies it then (once), or
 * cancels it when the invoice is voided. Through HTTP and the run, on SQLite and PostgreSQL.
 */
describe('queued service changes: services/edit with queue_service_changes, the run and service_changes', () => {
  let server: TestServer;
  let moduleId: number;
  let basic: { packageId: number; pricingId: number };
  let pro: { packageId: number; pricingId: number };

  const clock = () => new Date().toISOString().slice(0, 19).replace('T', ' ');
  const processChanges = () => runAt(server, clock(), { tasks: ['process_service_changes'] });
  const renewsIn = (days: number) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} 00:00:00`;

  before(async () => {
    ({ server, moduleId } = await recurringServer());
    basic = await addPackage(server, moduleId, { names: [{ lang: 'en_us', name: 'Queued Basic' }], pricing: [{ term: 1, period: 'month', price: '30.00', currency: 'USD' }] });
    pro = await addPackage(server, moduleId, { names: [{ lang: 'en_us', name: 'Queued Pro' }], meta: { plan: 'pro' }, pricing: [{ term: 1, period: 'month', price: '60.00', currency: 'USD' }] });
    await setSettings(server, { queue_service_changes: 'true' });
  });
  after(() => server.close());

  /** An active basic service of a new client renewing in 10 days. */
  async function activeService(domain: string) {
    const client = await addClient(server);
    const serviceId = await ok(server, 'POST', 'services/add', { vars: { pricing_id: basic.pricingId, client_id: client, status: 'active', domain, date_renews: `${renewsIn(10)} UTC` } });
    return { client, serviceId };
  }

  it('refuses a queue_service_changes that is not true or false', async () => {
    const res = await call(server, 'PUT', 'settings/set', { key: 'queue_service_changes', value: 'sometimes' });
    expect(res.status, res.text).to.equal(400);
  });

  it('invoices an upgrade and leaves the service as it is; the run applies it once the invoice is paid, once, and tells the module', async () => {
    const { client, serviceId } = await activeService('queued.example.com');
    await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: pro.pricingId } });

    const waiting = await serviceOf(server, serviceId);
    expect(waiting.pricing_id).to.equal(basic.pricingId);
    expect((await moduleService(server, waiting)).plan).to.equal('basic');
    const [invoice] = await invoicesOf(server, client);
    expect(Number(invoice.total)).to.be.greaterThan(0);
    const [change] = await ok(server, 'GET', 'service_changes/getAll', { service_id: serviceId });
    expect(change).to.include({ service_id: serviceId, invoice_id: invoice.id, status: 'pending', pricing_id: pro.pricingId, date_renews: renewsIn(10) });
    expect(await ok(server, 'GET', 'service_changes/get', { service_change_id: change.id })).to.deep.equal(change);

    // Unpaid: the run leaves it waiting.
    await processChanges();
    expect((await ok(server, 'GET', 'service_changes/get', { service_change_id: change.id })).status).to.equal('pending');
    expect((await serviceOf(server, serviceId)).pricing_id).to.equal(basic.pricingId);

    await pay(server, { client_id: client, amount: invoice.total, invoices: [{ invoice_id: invoice.id }] });
    const [report] = await processChanges();
    expect(report).to.include({ task: 'process_service_changes', processed: 1, failed: 0 });
    const upgraded = await serviceOf(server, serviceId);
    expect(upgraded).to.include({ pricing_id: pro.pricingId, date_renews: renewsIn(10) });
    expect((await moduleService(server, upgraded)).plan).to.equal('pro');
    expect(await ok(server, 'GET', 'service_changes/get', { service_change_id: change.id })).to.include({ status: 'completed' });
    const edits = await ok(server, 'GET', 'events/getList', { type: 'Services.edit' });
    expect(edits.some((e: any) => e.payload.id === serviceId && e.payload.pricing_id === pro.pricingId)).to.equal(true);

    // Again: nothing to do, nothing invoiced or credited twice.
    const [again] = await processChanges();
    expect(again.processed).to.equal(0);
    expect(await ok(server, 'POST', 'services/processChange', { service_change_id: change.id })).to.equal(false);
    expect(await invoicesOf(server, client)).to.have.length(1);
    expect(await ok(server, 'GET', 'transactions/getCredit', { client_id: client, currency: 'USD' })).to.equal('0.0000');
  });

  it('applies a paid change once when two runs process it at once', async () => {
    const { client, serviceId } = await activeService('twice-run.example.com');
    await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: pro.pricingId } });
    const [invoice] = await invoicesOf(server, client);
    await pay(server, { client_id: client, amount: invoice.total, invoices: [{ invoice_id: invoice.id }] });
    const reports = (await Promise.all([processChanges(), processChanges()])).flat();
    expect(reports.reduce((n, r) => n + r.processed, 0)).to.equal(1);
    expect((await serviceOf(server, serviceId)).pricing_id).to.equal(pro.pricingId);
    const edits = await ok(server, 'GET', 'events/getList', { type: 'Services.edit' });
    expect(edits.filter((e: any) => e.payload.id === serviceId && e.payload.pricing_id === pro.pricingId)).to.have.length(1);
  });

  it('cancels a paid change of a service canceled since, leaving the service canceled on its pricing', async () => {
    const { client, serviceId } = await activeService('gone.example.com');
    await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: pro.pricingId } });
    await ok(server, 'POST', 'services/cancel', { service_id: serviceId });
    const [invoice] = await invoicesOf(server, client);
    await pay(server, { client_id: client, amount: invoice.total, invoices: [{ invoice_id: invoice.id }] });
    await processChanges();
    const [change] = await ok(server, 'GET', 'service_changes/getAll', { service_id: serviceId });
    expect(change.status).to.equal('canceled');
    expect(await serviceOf(server, serviceId)).to.include({ status: 'canceled', pricing_id: basic.pricingId });
  });

  it('refuses a second change while one is pending, naming the field, with nothing written', async () => {
    const { client, serviceId } = await activeService('twice.example.com');
    await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: pro.pricingId } });
    const again = await call(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: pro.pricingId } });
    expect(again.status, again.text).to.equal(400);
    expect(again.json.errors).to.have.property('pricing_id');
    expect(again.json.errors.pricing_id.pending).to.match(/waiting for invoice \d+ to be paid/);
    expect(await invoicesOf(server, client)).to.have.length(1);
    expect(await ok(server, 'GET', 'service_changes/getAll', { service_id: serviceId })).to.have.length(1);
  });

  it('cancels a change whose invoice is voided, the service left as it was; then another change may be asked for', async () => {
    const { client, serviceId } = await activeService('voided.example.com');
    await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: pro.pricingId } });
    const [invoice] = await invoicesOf(server, client);
    await ok(server, 'POST', 'invoices/void', { invoice_id: invoice.id });
    const [report] = await processChanges();
    expect(report.processed).to.equal(1);
    const [change] = await ok(server, 'GET', 'service_changes/getAll', { service_id: serviceId });
    expect(change.status).to.equal('canceled');
    const kept = await serviceOf(server, serviceId);
    expect(kept.pricing_id).to.equal(basic.pricingId);
    expect((await moduleService(server, kept)).plan).to.equal('basic');
    await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: pro.pricingId } });
    expect(await ok(server, 'GET', 'service_changes/getListCount', { status: 'pending', service_id: serviceId })).to.equal(1);
  });

  it('applies a downgrade (a credit) at once, queueing nothing', async () => {
    const client = await addClient(server);
    const serviceId = await ok(server, 'POST', 'services/add', {
      vars: { pricing_id: pro.pricingId, client_id: client, status: 'active', domain: 'down.example.com', date_renews: `${renewsIn(10)} UTC` },
    });
    await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: basic.pricingId } });
    const down = await serviceOf(server, serviceId);
    expect(down.pricing_id).to.equal(basic.pricingId);
    expect((await moduleService(server, down)).plan).to.equal('basic');
    expect(Number(await ok(server, 'GET', 'transactions/getCredit', { client_id: client, currency: 'USD' }))).to.be.greaterThan(0);
    expect(await ok(server, 'GET', 'service_changes/getAll', { service_id: serviceId })).to.deep.equal([]);
  });

  it('queues a change of options that costs money: the service keeps its options until the invoice is paid', async () => {
    const groupId = await ok(server, 'POST', 'package_option_groups/add', { vars: { name: 'Queued options' } });
    const ipsId = await ok(server, 'POST', 'package_options/add', {
      vars: { label: 'IPs', name: 'ips', type: 'quantity', groups: [groupId], values: [{ name: 'Address', min: 1, max: 8, pricing: [{ term: 1, period: 'month', price: '2.00', currency: 'USD' }] }] },
    });
    const vps = await addPackage(server, moduleId, { names: [{ lang: 'en_us', name: 'Queued VPS' }], option_groups: [groupId] });
    const client = await addClient(server);
    const serviceId = await ok(server, 'POST', 'services/add', {
      vars: { pricing_id: vps.pricingId, client_id: client, status: 'active', domain: 'ips.example.com', date_renews: `${renewsIn(10)} UTC`, configoptions: { [ipsId]: '1' } },
    });
    const ips = async () => (await ok(server, 'GET', 'services/getOptions', { service_id: serviceId })).map((o: any) => o.qty);
    await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { configoptions: { [ipsId]: '3' } } });
    expect(await ips()).to.deep.equal([1]);
    const [change] = await ok(server, 'GET', 'service_changes/getAll', { service_id: serviceId, status: 'pending' });
    expect(change.pricing_id).to.equal(vps.pricingId);
    expect(change.options).to.have.length(1);
    expect(change.options[0]).to.include({ option_id: ipsId, qty: 3 });
    // A second change of options while it waits is refused naming configoptions.
    const res = await call(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { configoptions: { [ipsId]: '2' } } });
    expect(res.status, res.text).to.equal(400);
    expect(res.json.errors).to.have.property('configoptions');
    const [invoice] = await invoicesOf(server, client);
    await pay(server, { client_id: client, amount: invoice.total, invoices: [{ invoice_id: invoice.id }] });
    await processChanges();
    expect(await ips()).to.deep.equal([3]);
  });

  it("keeps a company's queued changes from another company: unseen, unsettled, its services not edited", async () => {
    const { serviceId } = await activeService('tenant.example.com');
    await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: pro.pricingId } });
    const [change] = await ok(server, 'GET', 'service_changes/getAll', { service_id: serviceId });
    const other = await newCompany(server, 'Other Changes Co');
    expect(await ok(server, 'GET', 'service_changes/get', { service_change_id: change.id }, other.auth)).to.equal(false);
    expect(await ok(server, 'GET', 'service_changes/getAll', {}, other.auth)).to.deep.equal([]);
    expect(await ok(server, 'GET', 'service_changes/getListCount', {}, other.auth)).to.equal(0);
    expect(await ok(server, 'POST', 'services/processChange', { service_change_id: change.id }, other.auth)).to.equal(false);
    const edit = await call(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: pro.pricingId } }, other.auth);
    expect(edit.status).to.not.equal(200);
    expect(edit.status).to.be.below(500);
    expect(await ok(server, 'GET', 'service_changes/get', { service_change_id: change.id })).to.include({ status: 'pending' });
  });

  it('with queue_service_changes off, an upgrade applies at once as before', async () => {
    await setSettings(server, { queue_service_changes: 'false' });
    try {
      const { serviceId } = await activeService('immediate.example.com');
      await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: pro.pricingId } });
      expect((await serviceOf(server, serviceId)).pricing_id).to.equal(pro.pricingId);
      expect(await ok(server, 'GET', 'service_changes/getAll', { service_id: serviceId })).to.deep.equal([]);
    } finally {
      await setSettings(server, { queue_service_changes: 'true' });
    }
  });
});
