import { expect } from 'chai';
import { Credential, TestResponse, TestServer } from '../../../support/test-server';
import { addInvoice } from '../billing/fixtures';
import { addClient, addPackage, call, ok, recurringServer } from '../recurring/support';
import { secondCompany } from './support';

/** The services queues, as list, page and count (services/service-queue-lists.ts). */
const QUEUES = ['Renewing', 'PaidPending', 'RenewablePaid', 'RenewableUnpaid', 'PendingSuspension', 'PendingUnsuspension', 'PendingCancelation'];
const QUEUE_READS = QUEUES.flatMap((q) => [
  `getAll${q}`,
  ...(q === 'Renewing' ? [] : [q === 'PaidPending' ? 'getPendingPaidList' : `get${q}List`, q === 'PaidPending' ? 'getPendingPaidCount' : `get${q}Count`]),
]);

/** What a caller learns from an answer: its status and body. */
const seen = (res: TestResponse) => ({ status: res.status, body: res.json });

/**
 * What the billing-reference session added to services and invoices (createRenewalFromService,
 * appendServices, getAllWithService, getPricingInfo, getPackagePricing, getChangeQuote, getAll, getSearchCount,
 * the queues' lists and counts; group and client billing settings), against company 2's
 * credential, read-only credentials and malformed input. Company 1's records answer company 2
 * exactly as ids that do not exist (no existence oracle), and nothing of company 1's changes.
 */
describe('tenancy: service invoicing, queues and billing settings', () => {
  let server: TestServer;
  let other: Credential;
  const mine: Record<string, number> = {};
  const theirs: Record<string, number> = {};
  const MISSING = 987654;

  before(async () => {
    let moduleId: number;
    ({ server, moduleId } = await recurringServer());
    ({ packageId: mine.package, pricingId: mine.pricing } = await addPackage(server, moduleId));
    mine.client = await addClient(server);
    // Active since long ago: renewing now, and a renewal invoice left unpaid.
    mine.service = await ok(server, 'POST', 'services/add', {
      vars: { client_id: mine.client, pricing_id: mine.pricing, status: 'active', use_module: 'false', date_added: '2025-01-01 00:00:00 UTC' },
    });
    mine.renewal = await ok(server, 'POST', 'invoices/createRenewalFromService', { service_id: mine.service });
    mine.pending = await ok(server, 'POST', 'services/add', { vars: { client_id: mine.client, pricing_id: mine.pricing, status: 'pending', use_module: 'false' } });
    mine.invoice = await addInvoice(server, mine.client, { date_billed: '2027-02-01 00:00:00 UTC', date_due: '2027-02-10 00:00:00 UTC' });
    mine.group = await ok(server, 'POST', 'client_groups/add', { vars: { name: 'Resellers' } });
    await ok(server, 'PUT', 'clients/edit', { client_id: mine.client, vars: { client_group_id: mine.group } });
    await ok(server, 'POST', 'client_groups/setSetting', { client_group_id: mine.group, key: 'inv_days_before_renewal', value: '9' });
    ({ credential: other } = await secondCompany(server));
    theirs.client = await addClient(server, { email: 'theirs@example.com' }, other);
    theirs.invoice = await addInvoice(server, theirs.client, { date_billed: '2027-02-01 00:00:00 UTC', date_due: '2027-02-10 00:00:00 UTC' }, other);
    const pkg = await call(server, 'POST', 'packages/add', { vars: { names: [{ lang: 'en_us', name: 'Own' }], pricing: [{ term: 1, period: 'month', price: '1', currency: 'USD' }] } }, other);
    theirs.pricing = (await ok(server, 'GET', 'packages/get', { package_id: pkg.json.response }, other)).pricing[0].id;
    theirs.service = await ok(server, 'POST', 'services/add', { vars: { client_id: theirs.client, pricing_id: theirs.pricing, status: 'pending', use_module: 'false' } }, other);
  });
  after(() => server.close());

  it("company 1's queues are not empty, and company 2 sees none of them", async () => {
    let listed = 0;
    for (const method of QUEUE_READS) {
      const own = await ok(server, 'GET', `services/${method}`);
      listed += Array.isArray(own) ? own.length : Number(own);
      const res = await call(server, 'GET', `services/${method}`, {}, other);
      expect(res.status, `${method}: ${res.text}`).to.equal(200);
      expect(res.json.response, method).to.satisfy((r: unknown) => r === 0 || (Array.isArray(r) && r.length === 0));
    }
    expect(listed, 'company 1 has services in its queues').to.be.greaterThan(3);
  });

  it("reads of company 1's services, pricings and invoices answer company 2 as ids that do not exist", async () => {
    const pairs: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
      ['services/getPricingInfo', { service_id: mine.service }, { service_id: MISSING }],
      ['services/getPackagePricing', { pricing_id: mine.pricing }, { pricing_id: MISSING }],
      ['services/getChangeQuote', { service_id: mine.service, pricing_id: theirs.pricing }, { service_id: MISSING, pricing_id: theirs.pricing }],
      ['services/getChangeQuote', { service_id: theirs.service, pricing_id: mine.pricing }, { service_id: theirs.service, pricing_id: MISSING }],
      ['invoices/getAllWithService', { service_id: mine.service }, { service_id: MISSING }],
      ['services/getAll', { filters: { client_id: mine.client } }, { filters: { client_id: MISSING } }],
      ['services/getAll', { filters: { package_id: mine.package } }, { filters: { package_id: MISSING } }],
      ['services/getNextInvoiceDate', { service_id: mine.service }, { service_id: MISSING }],
      ['client_groups/getSettings', { client_group_id: mine.group }, { client_group_id: MISSING }],
      ['client_groups/getSetting', { client_group_id: mine.group, key: 'inv_days_before_renewal' }, { client_group_id: MISSING, key: 'inv_days_before_renewal' }],
      ['clients/getSetting', { client_id: mine.client, key: 'inv_days_before_renewal' }, { client_id: MISSING, key: 'inv_days_before_renewal' }],
    ];
    for (const [path, theirsOf, missing] of pairs) {
      const res = await call(server, 'GET', path, theirsOf, other);
      expect(res.status, `${path}: ${res.text}`).to.be.oneOf([200, 400]);
      expect(seen(res), path).to.deep.equal(seen(await call(server, 'GET', path, missing, other)));
      if (res.status === 200) expect(res.json.response, path).to.satisfy((r: unknown) => r === false || (Array.isArray(r) && r.length === 0));
    }
    expect(await ok(server, 'GET', 'services/getSearchCount', { query: 'Hosting' }, other)).to.equal(0);
    expect(await ok(server, 'GET', 'services/getAll', {}, other)).to.have.length(1);
  });

  it("company 2 cannot invoice, renew, append or set the billing settings of company 1's records, and learns nothing of them", async () => {
    const before = {
      service: await ok(server, 'GET', 'services/get', { service_id: mine.service }),
      invoices: await ok(server, 'GET', 'invoices/getList', { status: 'all' }),
      invoice: await ok(server, 'GET', 'invoices/get', { invoice_id: mine.invoice }),
      group: await ok(server, 'GET', 'client_groups/getSettings', { client_group_id: mine.group, ignore_inheritence: 'true' }),
      client: await ok(server, 'GET', 'clients/getSettings', { client_id: mine.client }),
      theirs: await ok(server, 'GET', 'invoices/get', { invoice_id: theirs.invoice }, other),
    };
    const pairs: Array<[string, string, Record<string, unknown>, Record<string, unknown>]> = [
      ['POST', 'invoices/createRenewalFromService', { service_id: mine.service }, { service_id: MISSING }],
      ['POST', 'invoices/appendServices', { invoice_id: theirs.invoice, service_ids: [mine.pending] }, { invoice_id: theirs.invoice, service_ids: [MISSING] }],
      ['POST', 'invoices/appendServices', { invoice_id: mine.invoice, service_ids: [theirs.service] }, { invoice_id: MISSING, service_ids: [theirs.service] }],
      [
        'POST',
        'invoices/createFromServices',
        { client_id: theirs.client, service_ids: [mine.pending], currency: 'USD', due_date: '2027-03-01' },
        { client_id: theirs.client, service_ids: [MISSING], currency: 'USD', due_date: '2027-03-01' },
      ],
      ['POST', 'client_groups/setSetting', { client_group_id: mine.group, key: 'inv_days_before_renewal', value: '1' }, { client_group_id: MISSING, key: 'inv_days_before_renewal', value: '1' }],
      ['POST', 'client_groups/setSettings', { client_group_id: mine.group, vars: { autodebit: 'false' } }, { client_group_id: MISSING, vars: { autodebit: 'false' } }],
      ['DELETE', 'client_groups/unsetSetting', { client_group_id: mine.group, key: 'inv_days_before_renewal' }, { client_group_id: MISSING, key: 'inv_days_before_renewal' }],
      ['POST', 'clients/setSetting', { client_id: mine.client, key: 'autodebit', value: 'false' }, { client_id: MISSING, key: 'autodebit', value: 'false' }],
      ['POST', 'clients/setSettings', { client_id: mine.client, vars: { autodebit: 'false' } }, { client_id: MISSING, vars: { autodebit: 'false' } }],
      ['PUT', 'clients/edit', { client_id: theirs.client, vars: { client_group_id: mine.group } }, { client_id: theirs.client, vars: { client_group_id: MISSING } }],
    ];
    for (const [verb, path, theirsOf, missing] of pairs) {
      const res = await call(server, verb, path, theirsOf, other);
      expect(res.status, `${path}: ${res.text}`).to.equal(400);
      expect(seen(res), path).to.deep.equal(seen(await call(server, verb, path, missing, other)));
    }
    expect(await ok(server, 'GET', 'services/get', { service_id: mine.service })).to.deep.equal(before.service);
    expect(await ok(server, 'GET', 'invoices/getList', { status: 'all' })).to.deep.equal(before.invoices);
    expect(await ok(server, 'GET', 'invoices/get', { invoice_id: mine.invoice })).to.deep.equal(before.invoice);
    expect(await ok(server, 'GET', 'client_groups/getSettings', { client_group_id: mine.group, ignore_inheritence: 'true' })).to.deep.equal(before.group);
    expect(await ok(server, 'GET', 'clients/getSettings', { client_id: mine.client })).to.deep.equal(before.client);
    expect(await ok(server, 'GET', 'invoices/get', { invoice_id: theirs.invoice }, other)).to.deep.equal(before.theirs);
    expect((await ok(server, 'GET', 'clients/get', { client_id: theirs.client }, other)).client_group_id).not.to.equal(mine.group);
  });

  it('a read-only credential writes none of it, whatever verb carries the call', async () => {
    const readOnly = await server.credentialFor(1, { read_only: 'true' });
    const writes: Array<[string, Record<string, unknown>]> = [
      ['invoices/createRenewalFromService', { service_id: mine.service }],
      ['invoices/appendServices', { invoice_id: mine.invoice, service_ids: [mine.pending] }],
      ['client_groups/setSetting', { client_group_id: mine.group, key: 'inv_days_before_renewal', value: '1' }],
      ['clients/setSetting', { client_id: mine.client, key: 'autodebit', value: 'false' }],
      ['invoice_notices/markSent', { notice_id: 1 }],
      ['accounts/addAch', { vars: { client_id: mine.client, account: '000123456789', routing: '110000000' } }],
    ];
    const invoices = await ok(server, 'GET', 'invoices/getList', { status: 'all' });
    for (const [path, params] of writes) {
      for (const verb of ['GET', 'POST']) {
        const res = await call(server, verb, path, params, readOnly);
        expect(res.status, `${verb} ${path}: ${res.text}`).to.equal(403);
      }
    }
    expect(await ok(server, 'GET', 'invoices/getList', { status: 'all' })).to.deep.equal(invoices);
    expect(await ok(server, 'GET', 'accounts/getAllAchByClient', { client_id: mine.client, unverified: 'true' })).to.deep.equal([]);
  });

  it("services/getAll refuses a filter it cannot read instead of dropping it (which listed every client's services)", async () => {
    const everything = await ok(server, 'GET', 'services/getAll', {});
    expect(everything.length).to.be.greaterThan(1);
    const bad: Array<[string, Record<string, unknown>]> = [
      ['filters[client_id]', { client_id: '99999999999' }],
      ['filters[client_id]', { client_id: 'abc' }],
      ['filters[client_id]', { client_id: [mine.client] }],
      ['filters[client_id]', { client_id: '1.5' }],
      ['filters[package_id]', { package_id: '-' }],
      ['filters[package_id]', { package_id: '4294967297' }],
      ['filters[status]', { status: ['active'] }],
    ];
    for (const [field, filters] of bad) {
      const res = await call(server, 'GET', 'services/getAll', { filters });
      expect(res.status, `${JSON.stringify(filters)}: ${res.text}`).to.equal(400);
      expect(res.json.errors, JSON.stringify(filters)).to.have.property(field);
    }
    const ownClient = await ok(server, 'GET', 'services/getAll', { filters: { client_id: mine.client, package_id: mine.package, status: 'all' } });
    expect(ownClient.map((s: { id: number }) => s.id).sort()).to.deep.equal([mine.service, mine.pending].sort());
    expect(await ok(server, 'GET', 'services/getAll', { filters: { client_id: '' } })).to.deep.equal(everything);
  });
});
