import { expect } from 'chai';
import { TestServer } from '../../../support/test-server';
import { addClient, addPackage, call, invoicesOf, ok, recurringServer, runAt, serviceOf, setSettings } from './support';

/**
 * The billing settings inherit client > client group > company, in the billing run as in
 * clients/getSetting: one run bills the clients of one company each by its own group's rules.
 */
describe('recurring billing: billing settings per client group', () => {
  let server: TestServer;
  let pricingId: number;
  let early: number;
  let plain: number;
  let earlyClient: number;
  let plainClient: number;
  let exception: number;
  const services: Record<string, number[]> = {};

  const addServices = async (clientId: number) => {
    const ids = [];
    for (const domain of ['a', 'b']) {
      ids.push(
        await ok(server, 'POST', 'services/add', {
          vars: { pricing_id: pricingId, client_id: clientId, status: 'active', date_added: '2027-01-01 00:00:00 UTC', domain: `${domain}${clientId}.example.com` },
        }),
      );
    }
    return ids;
  };

  before(async () => {
    let moduleId: number;
    ({ server, moduleId } = await recurringServer());
    await setSettings(server, { inv_days_before_renewal: '3', inv_group_services: 'true', suspend_services_days_after_due: '2', autodebit: 'false' });
    ({ pricingId } = await addPackage(server, moduleId));
    plain = await ok(server, 'POST', 'client_groups/add', { vars: { name: 'Standard' } });
    early = await ok(server, 'POST', 'client_groups/add', { vars: { name: 'Invoiced early, never suspended' } });
    await ok(server, 'POST', 'client_groups/setSettings', { client_group_id: early, vars: { inv_days_before_renewal: '10', inv_group_services: 'false', suspend_services_days_after_due: 'never' } });
    plainClient = await addClient(server, { client_group_id: plain });
    earlyClient = await addClient(server, { client_group_id: early });
    // A client of the early group that sets its own invoice days: the client's own value wins.
    exception = await addClient(server, { client_group_id: early });
    await ok(server, 'POST', 'clients/setSetting', { client_id: exception, key: 'inv_days_before_renewal', value: '3' });
    for (const client of [plainClient, earlyClient, exception]) services[client] = await addServices(client);
  });
  after(() => server.close());

  it('refuses a group or client value the company setting would refuse, naming it', async () => {
    const res = await call(server, 'POST', 'client_groups/setSetting', { client_group_id: early, key: 'inv_days_before_renewal', value: 'soon' });
    expect(res.status).to.equal(400);
    expect(res.json.errors.value.format).to.match(/inv_days_before_renewal/);
    const many = await call(server, 'POST', 'clients/setSettings', { client_id: plainClient, vars: { autodebit_attempts: '0', language: 'en_us' } });
    expect(many.status).to.equal(400);
    expect(many.json.errors).to.have.property('vars[autodebit_attempts]');
    expect(await ok(server, 'GET', 'clients/getSetting', { client_id: plainClient, key: 'language' })).to.not.include({ level: 'client' });
  });

  it('clients/create checks vars[settings] as setSettings does: nothing of a refused sign-up is kept', async () => {
    // It stored them unchecked: getSetting showed the client's value while the run ignored it.
    const signUp = (n: number, settings: Record<string, unknown>) =>
      call(server, 'POST', 'clients/create', {
        vars: { username: `signup${n}`, new_password: 'secret12', confirm_password: 'secret12', first_name: 'Sign', last_name: 'Up', email: `signup${n}@example.com`, settings },
      });
    const clients = await ok(server, 'GET', 'clients/getListCount', { status: 'active' });
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ autodebit_attempts: 'abc' }, 'settings[autodebit_attempts]'],
      [{ inv_days_before_renewal: '99999', language: 'en_us' }, 'settings[inv_days_before_renewal]'],
      [{ notice1: 'tomorrow' }, 'settings[notice1]'],
      [{ 'bad key!': '1' }, 'settings[bad key!]'],
    ];
    for (const [i, [settings, field]] of refused.entries()) {
      const res = await signUp(i, settings);
      expect(res.status, res.text).to.equal(400);
      expect(res.json.errors, res.text).to.have.property(field);
    }
    expect(await ok(server, 'GET', 'clients/getListCount', { status: 'active' })).to.equal(clients);
    expect((await call(server, 'GET', 'users/getByUsername', { username: 'signup0' })).json.response).to.equal(false);
    const created = await ok(server, 'POST', 'clients/create', {
      vars: {
        username: 'signup-ok',
        new_password: 'secret12',
        confirm_password: 'secret12',
        first_name: 'Sign',
        last_name: 'Up',
        email: 'signup-ok@example.com',
        settings: { inv_days_before_renewal: '5', language: 'en_us' },
      },
    });
    expect(await ok(server, 'GET', 'clients/getSetting', { client_id: created.id, key: 'inv_days_before_renewal' })).to.include({ value: '5', level: 'client' });
  });

  it("dates the next invoice by the client's own settings", async () => {
    expect(await ok(server, 'GET', 'services/getNextInvoiceDate', { service_id: services[plainClient][0] })).to.equal('2027-01-29 00:00:00');
    expect(await ok(server, 'GET', 'services/getNextInvoiceDate', { service_id: services[earlyClient][0] })).to.equal('2027-01-22 00:00:00');
    expect(await ok(server, 'GET', 'services/getNextInvoiceDate', { service_id: services[exception][0] })).to.equal('2027-01-29 00:00:00');
  });

  it("invoices the early group ten days ahead, each service alone, and the company's clients three days ahead, together", async () => {
    await runAt(server, '2027-01-25 12:00:00');
    const earlyInvoices = await invoicesOf(server, earlyClient);
    expect(earlyInvoices, 'one invoice per service').to.have.length(2);
    expect(await invoicesOf(server, plainClient), 'not yet: three days').to.have.length(0);
    expect(await invoicesOf(server, exception), 'its own three days').to.have.length(0);

    await runAt(server, '2027-01-29 12:00:00');
    const [together] = await invoicesOf(server, plainClient);
    expect((await ok(server, 'GET', 'invoices/get', { invoice_id: together.id })).line_items).to.have.length(2);
    expect(await invoicesOf(server, plainClient)).to.have.length(1);
    expect(await invoicesOf(server, exception), "the group's grouping, the client's days").to.have.length(2);
    expect(await invoicesOf(server, earlyClient), 'nothing twice').to.have.length(2);
  });

  it("suspends the company's clients two days past due and never the early group's", async () => {
    await runAt(server, '2027-02-04 12:00:00');
    for (const id of services[plainClient]) expect((await serviceOf(server, id)).status).to.equal('suspended');
    for (const id of [...services[earlyClient], ...services[exception]]) expect((await serviceOf(server, id)).status).to.equal('active');
  });

  it("moving a client to another group bills it by that group's rules from the next run", async () => {
    await ok(server, 'PUT', 'clients/edit', { client_id: earlyClient, vars: { client_group_id: plain } });
    await runAt(server, '2027-02-05 12:00:00');
    for (const id of services[earlyClient]) expect((await serviceOf(server, id)).status).to.equal('suspended');
  });
});
