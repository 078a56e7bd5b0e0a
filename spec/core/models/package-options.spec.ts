import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { addClient, call, newCompany, ok } from '../../host/api/billing/fixtures';
import { runAt } from '../../host/api/recurring/support';
import { ExtensionsDir, manifest } from '../../host/extensions/fixtures';

/**
 * Package options (the reference's PackageOptions and option groups) over HTTP: an option group
 * assigned to a package, services taking options with configoptions[<option_id>], the option
 * prices on the service's invoices, and nothing of one company usable or visible by another.
 */
describe('package options', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const usd = (price: string, extra: Record<string, unknown> = {}) => ({ term: 1, period: 'month', price, currency: 'USD', ...extra });

  /** A monthly $20 package offering Memory (select: 1 GB free, 2 GB $5 + $3 setup, renewing at $6) and IPs (quantity 1-8, $2 each). */
  async function catalogue(auth?: Parameters<typeof ok>[4]) {
    const groupId = await ok(server, 'POST', 'package_option_groups/add', { vars: { name: 'VPS options' } }, auth);
    const memoryId = await ok(
      server,
      'POST',
      'package_options/add',
      {
        vars: {
          label: 'Memory',
          name: 'memory',
          type: 'select',
          groups: [groupId],
          values: [
            { name: '1 GB', value: '1024', default: 1, pricing: [usd('0.00')] },
            { name: '2 GB', value: '2048', pricing: [usd('5.00', { setup_fee: '3.00', price_renews: '6.00' })] },
          ],
        },
      },
      auth,
    );
    const ipsId = await ok(
      server,
      'POST',
      'package_options/add',
      { vars: { label: 'IPs', name: 'ips', type: 'quantity', groups: [groupId], values: [{ name: 'Address', min: 1, max: 8, pricing: [usd('2.00')] }] } },
      auth,
    );
    const packageId = await ok(server, 'POST', 'packages/add', { vars: { names: [{ lang: 'en_us', name: 'VPS' }], pricing: [usd('20.00')], option_groups: [groupId] } }, auth);
    const pricingId = (await ok(server, 'GET', 'packages/get', { package_id: packageId }, auth)).pricing[0].id;
    return { groupId, memoryId, ipsId, packageId, pricingId };
  }

  it('keeps options with their values, pricing and groups, and offers a package the options of its option groups', async () => {
    const { groupId, memoryId, ipsId, packageId } = await catalogue();
    const memory = await ok(server, 'GET', 'package_options/get', { option_id: memoryId });
    expect(memory).to.include({ label: 'Memory', name: 'memory', type: 'select', addable: 1, editable: 1, hidden: 0 });
    expect(memory.groups).to.deep.equal([groupId]);
    expect(memory.values.map((v: any) => [v.name, v.value, v.default, v.pricing[0].price, v.pricing[0].price_renews])).to.deep.equal([
      ['1 GB', '1024', 1, '0.0000', '0.0000'],
      ['2 GB', '2048', 0, '5.0000', '6.0000'],
    ]);
    expect((await ok(server, 'GET', 'packages/get', { package_id: packageId })).option_groups).to.deep.equal([groupId]);
    expect((await ok(server, 'GET', 'package_option_groups/get', { option_group_id: groupId })).options).to.deep.equal([memoryId, ipsId]);
    expect((await ok(server, 'GET', 'package_options/getByPackageId', { package_id: packageId })).map((o: any) => o.id)).to.deep.equal([memoryId, ipsId]);
    const value = memory.values[1].id;
    expect(await ok(server, 'GET', 'package_options/getValuePrice', { value_id: value, term: 1, period: 'month', currency: 'USD', qty: 2, renew: 'true' })).to.deep.equal({
      price: '12.0000',
      setup_fee: '3.0000',
      currency: 'USD',
    });
    expect(await ok(server, 'GET', 'package_options/getValuePrice', { value_id: value, term: 1, period: 'year', currency: 'USD' })).to.equal(false);
  });

  it('refuses a malformed option with the field named: no values, a select value twice, a quantity max below its min', async () => {
    const refused = async (vars: Record<string, unknown>, field: string) => {
      const res = await call(server, 'POST', 'package_options/add', { vars: { label: 'Disk', name: 'disk', ...vars } });
      expect(res.status, res.text).to.equal(400);
      expect(res.json.errors).to.have.property(field);
    };
    const before = await ok(server, 'GET', 'package_options/getListCount');
    await refused({ type: 'select' }, 'values[0][name]');
    await refused(
      {
        type: 'select',
        values: [
          { name: 'A', value: 'x' },
          { name: 'B', value: 'x' },
        ],
      },
      'values[1][value]',
    );
    await refused({ type: 'quantity', values: [{ name: 'GB', min: 5, max: 2 }] }, 'values[0][min]');
    await refused({ type: 'dropdown', values: [{ name: 'A', value: 'a' }] }, 'type');
    await refused({ type: 'select', groups: [987654], values: [{ name: 'A', value: 'a' }] }, 'groups');
    expect(await ok(server, 'GET', 'package_options/getListCount')).to.equal(before);
  });

  it('stores the options services/add is given, answers them with services/getOptions and bills them on the first invoice', async () => {
    const { memoryId, ipsId, pricingId } = await catalogue();
    const clientId = await addClient(server);
    const serviceId = await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, qty: 2, configoptions: { [memoryId]: '2048', [ipsId]: '3' } } });
    const options = await ok(server, 'GET', 'services/getOptions', { service_id: serviceId });
    expect(options.map((o: any) => [o.option_id, o.option_name, o.value, o.option_value_name, o.qty, o.option_pricing_price])).to.deep.equal([
      [memoryId, 'memory', '2048', '2 GB', 1, '5.0000'],
      [ipsId, 'ips', null, 'Address', 3, '2.0000'],
    ]);
    const invoiceId = await ok(server, 'POST', 'invoices/createFromServices', { client_id: clientId, service_ids: [serviceId], currency: 'USD', due_date: '2030-01-01', allow_pro_rata: 'false' });
    const invoice = await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId });
    const lines = invoice.line_items.map((l: any) => [l.description.replace(/ \(.*\)$/, ''), l.qty, l.amount, l.service_id]);
    expect(lines).to.deep.equal([
      ['VPS', '2.0000', '20.0000', serviceId],
      ['VPS - Memory: 2 GB', '2.0000', '5.0000', serviceId],
      ['VPS - Memory: 2 GB setup fee', '1.0000', '3.0000', serviceId],
      ['VPS - IPs: Address', '6.0000', '2.0000', serviceId],
    ]);
    // 2 × 20 + 2 × 5 + 3 + 6 × 2
    expect(invoice.total).to.equal('65.0000');
    // The renewal: the renewal price of the memory, no setup fee.
    expect(await ok(server, 'GET', 'services/getRenewalPrice', { service_id: serviceId })).to.equal('64.0000');
    const renewal = await ok(server, 'POST', 'invoices/createRenewalFromService', { service_id: serviceId });
    expect((await ok(server, 'GET', 'invoices/get', { invoice_id: renewal })).total).to.equal('64.0000');
  });

  it("refuses configoptions naming an unknown option, another package's option or a value not offered, with nothing written", async () => {
    const { memoryId, ipsId, pricingId } = await catalogue();
    const stray = await ok(server, 'POST', 'package_options/add', { vars: { label: 'Backups', name: 'backups', type: 'checkbox', values: [{ name: 'Daily', value: '1', pricing: [usd('1.00')] }] } });
    const clientId = await addClient(server);
    const refused = async (configoptions: Record<string, unknown>, field: string, code: string) => {
      const res = await call(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, configoptions } });
      expect(res.status, res.text).to.equal(400);
      expect(res.json.message).to.equal('The request cannot be fulfilled due to bad syntax.');
      expect(res.json.errors[field], res.text).to.have.property(code);
    };
    await refused({ 999999: '1' }, 'configoptions[999999]', 'exists');
    await refused({ [stray]: '1' }, `configoptions[${stray}]`, 'exists');
    await refused({ [memoryId]: '4096' }, `configoptions[${memoryId}]`, 'valid');
    await refused({ [ipsId]: '9' }, `configoptions[${ipsId}]`, 'valid');
    await refused({ [ipsId]: 'two' }, `configoptions[${ipsId}]`, 'valid');
    expect(await ok(server, 'GET', 'services/getListCount', { client_id: clientId, status: 'all' })).to.equal(0);
  });

  it("refuses a value without a price for the service's term and keeps options offered when the pricing changes", async () => {
    const { memoryId, packageId } = await catalogue();
    await ok(server, 'PUT', 'packages/edit', { package_id: packageId, vars: { pricing: [{ term: 1, period: 'year', price: '200.00', currency: 'USD' }] } });
    const pricing = (await ok(server, 'GET', 'packages/get', { package_id: packageId })).pricing;
    const [monthly, yearly] = [pricing.find((p: any) => p.period === 'month').id, pricing.find((p: any) => p.period === 'year').id];
    const clientId = await addClient(server);
    const res = await call(server, 'POST', 'services/add', { vars: { pricing_id: yearly, client_id: clientId, configoptions: { [memoryId]: '2048' } } });
    expect(res.status).to.equal(400);
    expect(res.json.errors[`configoptions[${memoryId}]`]).to.have.property('price');
    const serviceId = await ok(server, 'POST', 'services/add', { vars: { pricing_id: monthly, client_id: clientId, configoptions: { [memoryId]: '2048' } } });
    // The yearly pricing does not price 2 GB: the move is refused naming the option, and nothing changes.
    const move = await call(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: yearly } });
    expect(move.status, move.text).to.equal(400);
    expect(move.json.errors).to.have.property(`configoptions[${memoryId}]`);
    expect((await ok(server, 'GET', 'services/get', { service_id: serviceId })).pricing_id).to.equal(monthly);
    // Sent with options the new pricing offers (1 GB is priced monthly only too, so none), the move is made.
    await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: yearly, configoptions: '' } });
    expect(await ok(server, 'GET', 'services/getOptions', { service_id: serviceId })).to.deep.equal([]);
  });

  it("invoices the prorated difference when an active service's options change, and credits a downgrade", async () => {
    const { memoryId, pricingId } = await catalogue();
    const clientId = await addClient(server);
    const serviceId = await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', configoptions: { [memoryId]: '1024' } } });
    await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { configoptions: { [memoryId]: '2048' } } });
    const invoices = await ok(server, 'GET', 'invoices/getList', { client_id: clientId, status: 'all' });
    expect(invoices).to.have.length(1);
    const changed = await ok(server, 'GET', 'invoices/get', { invoice_id: invoices[0].id });
    expect(changed.line_items[0].description).to.match(/^VPS: options changed: prorated change until /);
    // Changed the day it started: the whole remaining term, $5 − $0.
    expect(changed.total).to.equal('5.0000');
    expect((await ok(server, 'GET', 'services/getOptions', { service_id: serviceId }))[0].option_value).to.equal('2048');
    // Back to 1 GB: the unused $5 is credited.
    await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { configoptions: { [memoryId]: '1024' } } });
    const credits = await ok(server, 'GET', 'transactions/getCredits', { client_id: clientId, currency: 'USD' });
    expect(credits.map((c: any) => c.credit)).to.deep.equal(['5.0000']);
  });

  it("quotes and makes a move to another term with the service's options priced in it", async () => {
    const groupId = await ok(server, 'POST', 'package_option_groups/add', { vars: { name: 'Terms' } });
    const disk = await ok(server, 'POST', 'package_options/add', {
      vars: {
        label: 'Disk',
        name: 'disk',
        type: 'select',
        groups: [groupId],
        values: [{ name: '100 GB', value: '100', pricing: [usd('5.00'), { term: 1, period: 'year', price: '50.00', currency: 'USD' }] }],
      },
    });
    const packageId = await ok(server, 'POST', 'packages/add', {
      vars: { names: [{ lang: 'en_us', name: 'Terms' }], option_groups: [groupId], pricing: [usd('20.00'), { term: 1, period: 'year', price: '200.00', currency: 'USD' }] },
    });
    const pricing = (await ok(server, 'GET', 'packages/get', { package_id: packageId })).pricing;
    const [monthly, yearly] = [pricing.find((p: any) => p.period === 'month').id, pricing.find((p: any) => p.period === 'year').id];
    const clientId = await addClient(server);
    const serviceId = await ok(server, 'POST', 'services/add', { vars: { pricing_id: monthly, client_id: clientId, status: 'active', configoptions: { [disk]: '100' } } });
    // A new term: $200 + $50 for the year, less the unused month of $20 + $5 (all of it, changed the day it started).
    const quote = await ok(server, 'GET', 'services/getChangeQuote', { service_id: serviceId, pricing_id: yearly });
    expect(quote).to.include({ invoice: '225.0000', credit: '0.0000' });
    await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: yearly } });
    const invoices = await ok(server, 'GET', 'invoices/getList', { client_id: clientId, status: 'all' });
    expect(invoices.map((i: any) => i.total)).to.deep.equal(['225.0000']);
    expect((await ok(server, 'GET', 'services/getOptions', { service_id: serviceId }))[0].option_pricing_price).to.equal('50.0000');
  });

  it('renews options with the billing run', async () => {
    const { ipsId, pricingId } = await catalogue();
    const clientId = await addClient(server);
    const serviceId = await ok(server, 'POST', 'services/add', {
      vars: { pricing_id: pricingId, client_id: clientId, date_added: '2030-01-01 00:00:00 UTC', date_renews: '2030-02-01 00:00:00 UTC', configoptions: { [ipsId]: '4' } },
    });
    await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { status: 'active', use_module: 'false' } });
    await runAt(server, '2030-01-31 12:00:00');
    const invoices = await ok(server, 'GET', 'invoices/getList', { client_id: clientId, status: 'all' });
    const renewal = await ok(server, 'GET', 'invoices/get', { invoice_id: invoices[0].id });
    expect(renewal.line_items.map((l: any) => [l.description.replace(/ \(.*\)$/, ''), l.qty, l.amount])).to.deep.equal([
      ['VPS', '1.0000', '20.0000'],
      ['VPS - IPs: Address', '4.0000', '2.0000'],
    ]);
  });

  it('keeps a value services use and an option in use from being removed', async () => {
    const { memoryId, pricingId } = await catalogue();
    const clientId = await addClient(server);
    await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, configoptions: { [memoryId]: '2048' } } });
    const memory = await ok(server, 'GET', 'package_options/get', { option_id: memoryId });
    const dropped = await call(server, 'PUT', 'package_options/edit', { option_id: memoryId, vars: { values: [{ id: memory.values[0].id, name: '1 GB', value: '1024', pricing: [usd('0.00')] }] } });
    expect(dropped.status, dropped.text).to.equal(400);
    expect(dropped.json.errors.values).to.have.property('in_use');
    const deleted = await call(server, 'DELETE', 'package_options/delete', { option_id: memoryId });
    expect(deleted.status).to.equal(400);
    expect(deleted.json.errors.option_id).to.have.property('in_use');
    // Repriced in place (by id), the value stays the service's.
    await ok(server, 'PUT', 'package_options/edit', { option_id: memoryId, vars: { values: memory.values.map((v: any) => ({ id: v.id, name: v.name, value: v.value, pricing: [usd('7.00')] })) } });
    expect((await ok(server, 'GET', 'package_options/get', { option_id: memoryId })).values[1].pricing[0].price).to.equal('7.0000');
  });

  it("never shows or lets another company use a company's options and option groups", async () => {
    const mine = await catalogue();
    const other = await newCompany(server, 'Other options');
    expect(await ok(server, 'GET', 'package_options/get', { option_id: mine.memoryId }, other.auth)).to.equal(false);
    expect(await ok(server, 'GET', 'package_option_groups/get', { option_group_id: mine.groupId }, other.auth)).to.equal(false);
    expect(await ok(server, 'GET', 'package_options/getAll', {}, other.auth)).to.deep.equal([]);
    expect(await ok(server, 'GET', 'package_options/getByPackageId', { package_id: mine.packageId }, other.auth)).to.deep.equal([]);
    // Their group cannot be given to its package or its option, nor their option used by its service.
    const theirs = await call(server, 'POST', 'packages/add', { vars: { names: [{ lang: 'en_us', name: 'Copy' }], pricing: [usd('1.00')], option_groups: [mine.groupId] } }, other.auth);
    expect(theirs.status).to.equal(400);
    expect(theirs.json.errors).to.have.property('option_groups');
    const option = await call(
      server,
      'POST',
      'package_options/add',
      { vars: { label: 'X', name: 'x', type: 'text', groups: [mine.groupId], values: [{ name: 'X', pricing: [usd('1.00')] }] } },
      other.auth,
    );
    expect(option.status).to.equal(400);
    expect(option.json.errors).to.have.property('groups');
    const own = await catalogue(other.auth);
    const clientId = await addClient(server, {}, other.auth);
    const res = await call(server, 'POST', 'services/add', { vars: { pricing_id: own.pricingId, client_id: clientId, configoptions: { [mine.memoryId]: '2048' } } }, other.auth);
    expect(res.status).to.equal(400);
    expect(res.json.errors[`configoptions[${mine.memoryId}]`]).to.have.property('exists');
    for (const [path, params] of [
      ['package_options/edit', { option_id: mine.memoryId, vars: { label: 'Mine now' } }],
      ['package_option_groups/edit', { option_group_id: mine.groupId, vars: { name: 'Mine now' } }],
    ] as const) {
      const edit = await call(server, 'PUT', path, params, other.auth);
      expect(edit.status, path).to.equal(400);
    }
    expect((await ok(server, 'GET', 'package_options/get', { option_id: mine.memoryId })).label).to.equal('Memory');
  });
});

/** A module is handed the service's options as the reference's modules are: configoptions by option name. */
describe('package options: the module', () => {
  const ECHO = `
exports.models = { services: {
  callable: { provision: { params: ['vars'] }, changePackage: { params: ['service_id', 'vars'] } },
  provision(vars) { return { service_id: 1, memory_given: JSON.stringify(vars.configoptions ?? null) }; },
  changePackage() { return null; },
} };
`;
  const dir = new ExtensionsDir().add('modules/echo_options', manifest('Echo options'), ECHO);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ extensionsDir: dir.root });
  });
  after(async () => {
    await server.close();
    dir.remove();
  });

  it('provisions with configoptions[<option name>] = the value, quantity or text the service took', async () => {
    const moduleId = await ok(server, 'POST', 'module_manager/add', { vars: { dir: 'echo_options' } });
    const groupId = await ok(server, 'POST', 'package_option_groups/add', { vars: { name: 'Options' } });
    const price = [{ term: 1, period: 'month', price: '1.00', currency: 'USD' }];
    const memory = await ok(server, 'POST', 'package_options/add', {
      vars: { label: 'Memory', name: 'memory', type: 'radio', groups: [groupId], values: [{ name: '2 GB', value: '2048', pricing: price }] },
    });
    const ips = await ok(server, 'POST', 'package_options/add', { vars: { label: 'IPs', name: 'ips', type: 'quantity', groups: [groupId], values: [{ name: 'IP', min: 1, pricing: price }] } });
    const host = await ok(server, 'POST', 'package_options/add', { vars: { label: 'Hostname', name: 'hostname', type: 'text', groups: [groupId], values: [{ name: 'Hostname', pricing: price }] } });
    const packageId = await ok(server, 'POST', 'packages/add', { vars: { names: [{ lang: 'en_us', name: 'Echo' }], module_id: moduleId, option_groups: [groupId], pricing: price } });
    const pricingId = (await ok(server, 'GET', 'packages/get', { package_id: packageId })).pricing[0].id;
    const clientId = await addClient(server);
    const serviceId = await ok(server, 'POST', 'services/add', {
      vars: { pricing_id: pricingId, client_id: clientId, status: 'active', configoptions: { [memory]: '2048', [ips]: '3', [host]: 'vps1.example.com' } },
    });
    const fields = (await ok(server, 'GET', 'services/get', { service_id: serviceId })).fields;
    expect(JSON.parse(fields.find((f: any) => f.key === 'memory_given').value)).to.deep.equal({ memory: '2048', ips: '3', hostname: 'vps1.example.com' });
  });
});
