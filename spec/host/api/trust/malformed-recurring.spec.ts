import { expect } from 'chai';
import { TestServer } from '../../../support/test-server';
import { addInvoice } from '../billing/fixtures';
import { addClient, addPackage, call, ok, recurringServer, runAt, setSettings } from '../recurring/support';

/** Values of the wrong type, size or shape, each sent in place of one parameter. */
const EDGES: unknown[] = [
  '',
  ' ',
  '0',
  '-1',
  '-2147483649',
  '2147483648',
  '99999999999999999999',
  '1.5',
  '1e3',
  'abc',
  'é😀\u202e',
  'x'.repeat(3000),
  ['1'],
  ['1', '2'],
  { a: '1' },
  { 0: { 0: '1' } },
];

/**
 * Every method the recurring sessions added, with each of its parameters (and each key of its
 * vars) replaced in turn by a value of the wrong type, size or shape: never a 500, on SQLite as on
 * PostgreSQL. The valid call each starts from is shown to succeed first, so the sweep is of
 * answers a real call could get.
 */
describe("malformed input to the recurring models' new methods", function () {
  this.timeout(120_000);
  let server: TestServer;
  const ids: Record<string, number> = {};

  before(async () => {
    let moduleId: number;
    ({ server, moduleId } = await recurringServer());
    ({ pricingId: ids.pricing, packageId: ids.package } = await addPackage(server, moduleId));
    ids.client = await addClient(server);
    ids.contact = (await ok(server, 'GET', 'contacts/getAll', { client_id: ids.client }))[0].id;
    ids.service = await ok(server, 'POST', 'services/add', { vars: { client_id: ids.client, pricing_id: ids.pricing, status: 'active', use_module: 'false' } });
    ids.invoice = await addInvoice(server, ids.client, { date_billed: '2027-02-01 00:00:00 UTC', date_due: '2027-02-10 00:00:00 UTC' });
    ids.ach = await ok(server, 'POST', 'accounts/addAch', { vars: { client_id: ids.client, account: '000123456789', routing: '110000000' } });
    ids.group = await ok(server, 'POST', 'client_groups/add', { vars: { name: 'Group' } });
    await setSettings(server, { notice1: '-5' });
    await runAt(server, '2027-02-05 12:00:00');
    ids.notice = (await ok(server, 'GET', 'invoice_notices/getList', { client_id: ids.client }))[0].id;
    ids.gateway = (await ok(server, 'GET', 'gateway_manager/getByClass', { class: 'test_card' }))[0].id;
  });
  after(() => server.close());

  /** [verb, path, a valid call's parameters]: reads first, then writes that leave the fixtures usable. */
  const calls = (): Array<[string, string, Record<string, unknown>]> => [
    ['GET', 'accounts/getAch', { account_id: ids.ach }],
    ['GET', 'accounts/getAllAch', { contact_id: ids.contact, unverified: 'true' }],
    ['GET', 'accounts/getAllAchByClient', { client_id: ids.client, unverified: 'true' }],
    ['GET', 'accounts/getListAch', { contact_id: ids.contact, sortby: 'last_name', order: 'desc' }],
    ['GET', 'accounts/getAchTypes', {}],
    ['GET', 'invoice_notices/get', { notice_id: ids.notice }],
    ['GET', 'invoice_notices/getList', { client_id: ids.client, status: 'all', page: 1 }],
    ['GET', 'invoice_notices/getListCount', { client_id: ids.client, status: 'all' }],
    ['GET', 'invoice_notices/getTypes', {}],
    ['GET', 'invoices/getAllWithService', { service_id: ids.service, status: 'all' }],
    ['GET', 'services/getAll', { children: 'true', filters: { client_id: ids.client, status: 'all', package_id: ids.package } }],
    ['GET', 'services/getSearchCount', { query: 'Hosting' }],
    ['GET', 'services/getPricingInfo', { service_id: ids.service, currency_code: 'USD' }],
    ['GET', 'services/getPackagePricing', { pricing_id: ids.pricing }],
    ['GET', 'services/getActions', {}],
    ['GET', 'services/getRenewableUnpaidList', { page: 1 }],
    ['GET', 'services/getPendingSuspensionCount', {}],
    ['GET', 'gateway_manager/get', { gateway_id: ids.gateway }],
    ['GET', 'users/getByUsername', { username: 'nobody' }],
    ['GET', 'users/getByEmail', { email: 'nobody@example.com' }],
    ['GET', 'users/getAllByEmail', { email: 'nobody@example.com' }],
    ['GET', 'client_groups/getSettings', { client_group_id: ids.group, ignore_inheritence: 'false' }],
    ['PUT', 'accounts/editAch', { account_id: ids.ach, vars: { first_name: 'Ada', last_name: 'Lovelace' } }],
    ['PUT', 'invoice_notices/markSent', { notice_id: ids.notice }],
    ['POST', 'client_groups/setSetting', { client_group_id: ids.group, key: 'inv_days_before_renewal', value: '5' }],
    ['POST', 'clients/setSettings', { client_id: ids.client, vars: { autodebit_attempts: '2' } }],
    ['POST', 'invoices/createRenewalFromService', { service_id: ids.service, term_cycles: 1 }],
    ['POST', 'accounts/addAch', { vars: { client_id: ids.client, account: '000123456789', routing: '110000000', type: 'savings', first_name: 'Ada', currency: 'USD' } }],
    ['PUT', 'gateway_manager/upgrade', { gateway_id: ids.gateway }],
    // Last: a right answer verifies the account, after which every call is refused as verified.
    ['POST', 'accounts/verifyAchDeposits', { account_id: ids.ach, vars: { first_deposit: '0.32', second_deposit: '0.45' } }],
  ];

  /** The call's parameters with one of them (or one key of its vars or filters) replaced. */
  function variants(params: Record<string, unknown>): Array<[string, Record<string, unknown>]> {
    const out: Array<[string, Record<string, unknown>]> = [];
    for (const [name, value] of Object.entries(params)) {
      for (const edge of EDGES) out.push([`${name}=${JSON.stringify(edge).slice(0, 30)}`, { ...params, [name]: edge }]);
      out.push([`no ${name}`, Object.fromEntries(Object.entries(params).filter(([k]) => k !== name))]);
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        for (const key of Object.keys(value)) {
          for (const edge of EDGES) out.push([`${name}[${key}]=${JSON.stringify(edge).slice(0, 30)}`, { ...params, [name]: { ...value, [key]: edge } }]);
        }
      }
    }
    return out;
  }

  it('answers every one of them with something other than a 500', async () => {
    let sent = 0;
    const statuses = new Map<number, number>();
    for (const [verb, path, params] of calls()) {
      const valid = await call(server, verb, path, params);
      expect(valid.status, `${path} as given: ${valid.text}`).to.equal(200);
      // verifyAchDeposits' valid call verified the account: its variants are sent before it is.
      const list = path === 'accounts/verifyAchDeposits' ? [] : variants(params);
      for (const [what, given] of list) {
        const res = await call(server, verb, path, given);
        sent++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, `${verb} ${path} ${what}: ${res.text.slice(0, 300)}`).to.not.equal(500);
      }
    }
    expect(sent).to.be.greaterThan(500);
    expect([...statuses.keys()]).to.include.members([200, 400]);
  });

  it("addAch and addCc refuse a vars[contact_id] they cannot read instead of storing the account on the client's primary contact", async () => {
    const before = await ok(server, 'GET', 'accounts/getAllAchByClient', { client_id: ids.client, unverified: 'true' });
    for (const contactId of ['abc', '99999999999', '1.5', ['1'], '-1']) {
      const ach = await call(server, 'POST', 'accounts/addAch', { vars: { contact_id: contactId, client_id: ids.client, account: '000123456789', routing: '110000000' } });
      expect(ach.status, `${JSON.stringify(contactId)}: ${ach.text}`).to.equal(400);
      expect(ach.json.errors).to.have.property('contact_id');
      const card = await call(server, 'POST', 'accounts/addCc', { vars: { contact_id: contactId, client_id: ids.client, number: '4242424242424242', expiration: '203012', security_code: '123' } });
      expect(card.status, `${JSON.stringify(contactId)}: ${card.text}`).to.equal(400);
    }
    expect(await ok(server, 'GET', 'accounts/getAllAchByClient', { client_id: ids.client, unverified: 'true' })).to.deep.equal(before);
    expect(await ok(server, 'POST', 'accounts/addAch', { vars: { contact_id: ids.contact, account: '000123456789', routing: '110000000' } })).to.be.a('number');
  });

  it("verifyAchDeposits: every malformed deposit is a clear 400 and does not use up the account's tries (a list was read as an amount)", async () => {
    const account = await ok(server, 'POST', 'accounts/addAch', { vars: { client_id: ids.client, account: '000123456789', routing: '110000000' } });
    for (const [what, given] of variants({ vars: { first_deposit: '0.32', second_deposit: '0.45' } })) {
      // "0" is an amount (a wrong one): it is a guess, and uses up a try as it should.
      if (what.endsWith('="0"')) continue;
      const res = await call(server, 'POST', 'accounts/verifyAchDeposits', { account_id: account, ...given });
      expect(res.status, `${what}: ${res.text.slice(0, 300)}`).to.equal(400);
    }
    expect(await ok(server, 'GET', 'accounts/getAch', { account_id: account })).to.include({ status: 'unverified' });
    // The gateway's own method reads a list as no amount too.
    const token = (await ok(server, 'GET', 'accounts/getAch', { account_id: account })).reference_id;
    const direct = await call(server, 'POST', 'test_card.tokens/verifyDeposits', { vars: { reference_id: token, client_id: ids.client, amounts: [['32'], ['45']] } });
    expect(direct.status, direct.text).to.equal(400);
    // Refused by the declared shape of vars[amounts] (amounts[i]) before the gateway's own check.
    expect(Object.keys(direct.json.errors), direct.text).to.satisfy((keys: string[]) => keys.length > 0 && keys.every((k) => k.startsWith('amounts')));
    expect(await ok(server, 'POST', 'accounts/verifyAchDeposits', { account_id: account, vars: { first_deposit: '32', second_deposit: '45' } })).to.equal(true);
  });
});
